{{/*
One indexer chain's URL variable from a Secret (docs/indexer.md "Configuration", "Sui and Aptos"):
prefix + the chain's name upper-cased with "-" as "_" (as the indexer's config names it), from
ref = {secretName, key, optional}, as an env list entry indented by indent; nothing when ref is
empty.
*/}}
{{- define "monitoring-api.chainSecretEnv" -}}
{{- with .ref }}
{{- $secretKeyRef := dict "name" .secretName "key" .key }}
{{- if .optional }}{{ $_ := set $secretKeyRef "optional" true }}{{ end }}
{{- $name := printf "%s%s" $.prefix ($.chain | upper | replace "-" "_") }}
{{- list (dict "name" $name "valueFrom" (dict "secretKeyRef" $secretKeyRef)) | toYaml | nindent $.indent }}
{{- end }}
{{- end }}

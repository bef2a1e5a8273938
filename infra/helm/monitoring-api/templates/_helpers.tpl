{{/*
Names, labels and the pieces every workload of this chart shares (pod security, env wiring).
*/}}

{{- define "monitoring-api.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-scoped base name; trimmed so suffixes like "-rank" still fit in 63 characters. */}}
{{- define "monitoring-api.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 52 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 52 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 52 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "monitoring-api.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select the API pods; stable across upgrades (never add the version here). */}}
{{- define "monitoring-api.selectorLabels" -}}
app.kubernetes.io/name: {{ include "monitoring-api.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "monitoring-api.labels" -}}
helm.sh/chart: {{ include "monitoring-api.chart" . }}
{{ include "monitoring-api.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: ctss
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* image reference: a digest wins over a tag; the tag defaults to the chart's appVersion. */}}
{{- define "monitoring-api.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "monitoring-api.configMapName" -}}
{{- printf "%s-config" (include "monitoring-api.fullname" .) }}
{{- end }}

{{/*
One env value as a string: numbers print as integers (the schema allows only integers),
booleans as true/false.
*/}}
{{- define "monitoring-api.envValue" -}}
{{- if kindIs "string" . }}{{ . }}{{- else if kindIs "bool" . }}{{ ternary "true" "false" . }}{{- else }}{{ printf "%d" (int64 .) }}{{- end }}
{{- end }}

{{/*
ConfigMap data from .Values.config. Empty strings and nulls are left out, so the app default
applies (the apps treat an absent variable as "use the default").
*/}}
{{- define "monitoring-api.configData" -}}
{{- range $key, $value := .Values.config }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{ $key }}: {{ include "monitoring-api.envValue" $value | quote }}
{{- end }}
{{- end }}
{{- include "monitoring-api.indexedChains" . }}
{{- end }}

{{/*
FEED_INDEXED_CHAINS from the indexer's chains of every family (network:domain, comma-separated;
the indexer's default domains: Solana 5, Sui 8, Aptos 9), unless config
sets it: the API closes a feed window only once every one of them is final past it
(docs/api.md "Compression and HTTP caching").
*/}}
{{- define "monitoring-api.indexedChains" -}}
{{- $indexer := .Values.indexer }}
{{- if and $indexer.enabled (or $indexer.chains $indexer.suiChains $indexer.aptosChains) (not (hasKey .Values.config "FEED_INDEXED_CHAINS")) }}
{{- $ids := list }}
{{- range $indexer.chains }}
{{- /* A Solana cluster's domain defaults to 5 (docs/indexer.md "Solana"). */}}
{{- $domain := ternary (default 5 .domain) .domain (eq (toString .family) "solana") }}
{{- $ids = append $ids (printf "%s:%d" (default "mainnet" .network) (int $domain)) }}
{{- end }}
{{- range $indexer.suiChains }}
{{- $ids = append $ids (printf "%s:%d" (default "mainnet" .network) (int (default 8 .domain))) }}
{{- end }}
{{- range $indexer.aptosChains }}
{{- $ids = append $ids (printf "%s:%d" (default "mainnet" .network) (int (default 9 .domain))) }}
{{- end }}
FEED_INDEXED_CHAINS: {{ join "," $ids | quote }}
{{- end }}
{{- end }}

{{/*
Env entries read from existing Secrets: .Values.secretEnv maps a variable name to
{secretName, key, optional}. The chart never creates Secrets and never sees their values.
*/}}
{{- define "monitoring-api.secretEnv" -}}
{{- range $name, $ref := .Values.secretEnv }}
{{- if $ref }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName | quote }}
      key: {{ $ref.key | quote }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* The same settings as the ConfigMap, inline: for hook Jobs that run before the ConfigMap exists. */}}
{{- define "monitoring-api.inlineConfigEnv" -}}
{{- range $key, $value := .Values.config }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
- name: {{ $key }}
  value: {{ include "monitoring-api.envValue" $value | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Pod-level fields shared by the Deployment, the migration Job and the rank CronJob. */}}
{{- define "monitoring-api.podCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .Values.serviceAccount.name }}
serviceAccountName: {{ .Values.serviceAccount.name }}
{{- end }}
automountServiceAccountToken: {{ .Values.serviceAccount.automountToken }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* The writable scratch directory: the root filesystem is read-only. */}}
{{- define "monitoring-api.tmpVolume" -}}
- name: tmp
  emptyDir:
    medium: Memory
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end }}

{{- define "monitoring-api.tmpMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}

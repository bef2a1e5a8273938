{{/*
Names, labels and the pieces every workload of this chart shares (pod security, env wiring).
*/}}

{{- define "gas-quote-api.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-scoped base name; trimmed so suffixes like "-rank" still fit in 63 characters. */}}
{{- define "gas-quote-api.fullname" -}}
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

{{- define "gas-quote-api.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select the API pods; stable across upgrades (never add the version here). */}}
{{- define "gas-quote-api.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gas-quote-api.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "gas-quote-api.labels" -}}
helm.sh/chart: {{ include "gas-quote-api.chart" . }}
{{ include "gas-quote-api.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: ctss
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* image reference: a digest wins over a tag; the tag defaults to the chart's appVersion. */}}
{{- define "gas-quote-api.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* ConfigMap of one component: (dict "root" $ "component" "api"). */}}
{{- define "gas-quote-api.configMapName" -}}
{{- printf "%s-%s" (include "gas-quote-api.fullname" .root) .component }}
{{- end }}

{{/*
One env value as a string: numbers print as integers (the schema allows only integers),
booleans as true/false.
*/}}
{{- define "gas-quote-api.envValue" -}}
{{- if kindIs "string" . }}{{ . }}{{- else if kindIs "bool" . }}{{ ternary "true" "false" . }}{{- else }}{{ printf "%d" (int64 .) }}{{- end }}
{{- end }}

{{/*
The settings of one component: the shared .Values.config overlaid with the component's own
config map (the component wins). Argument: the component's values (.Values.api / .Values.feeder)
and the root, as (dict "root" $ "values" .Values.api).
*/}}
{{- define "gas-quote-api.mergedConfig" -}}
{{- $merged := merge (deepCopy (default dict .values.config)) (deepCopy (default dict .root.Values.config)) }}
{{- toYaml $merged }}
{{- end }}

{{/*
ConfigMap data lines from a merged config map. Empty strings and nulls are left out, so the
app default applies (the apps treat an absent variable as "use the default").
*/}}
{{- define "gas-quote-api.configData" -}}
{{- range $key, $value := (include "gas-quote-api.mergedConfig" . | fromYaml) }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{ $key }}: {{ include "gas-quote-api.envValue" $value | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Env entries read from existing Secrets. Argument: a map NAME -> {secretName, key, optional}.
The chart never creates Secrets and never sees their values.
*/}}
{{- define "gas-quote-api.secretEnv" -}}
{{- range $name, $ref := . }}
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

{{/* Signer keys (API only): env name -> key of the one existing signer Secret. */}}
{{- define "gas-quote-api.signerEnv" -}}
{{- $secret := .Values.signer.existingSecret }}
{{- range $name, $key := .Values.signer.keys }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret | quote }}
      key: {{ $key | quote }}
{{- end }}
{{- end }}

{{/* Component selector labels: (dict "root" $ "component" "api"). */}}
{{- define "gas-quote-api.componentSelectorLabels" -}}
{{ include "gas-quote-api.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* Pod-level fields shared by the Deployment, the migration Job and the rank CronJob. */}}
{{- define "gas-quote-api.podCommon" -}}
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
{{- define "gas-quote-api.tmpVolume" -}}
- name: tmp
  emptyDir:
    medium: Memory
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end }}

{{- define "gas-quote-api.tmpMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}

{{/* RPC_URL_<CHAIN> for each chain key, from the one existing RPC Secret (optional keys). */}}
{{- define "gas-quote-api.rpcEnv" -}}
{{- if .Values.rpc.existingSecret }}
{{- range $chain := .Values.rpc.chains }}
- name: RPC_URL_{{ upper $chain }}
  valueFrom:
    secretKeyRef:
      name: {{ $.Values.rpc.existingSecret | quote }}
      key: {{ $chain | quote }}
      optional: true
{{- end }}
{{- end }}
{{- end }}

{{/* Whether the feeder's metrics Service and ServiceMonitor are rendered. */}}
{{- define "gas-quote-api.feederMetrics" -}}
{{- if and .Values.feeder.enabled .Values.feeder.http.enabled .Values.serviceMonitor.enabled }}true{{ end }}
{{- end }}

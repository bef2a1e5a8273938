// Multi-document YAML parsing for rendered manifests (the `yaml` package, YAML 1.2 core schema).
import { parseAllDocuments } from 'yaml';

/**
 * Parses `helm template` output into plain objects, dropping empty documents.
 *
 * @param {string} text multi-document YAML
 * @returns {Array<{ source: string | undefined, doc: Record<string, any> }>} `source` is the
 *   template path from helm's `# Source:` comment
 * @throws Error on a YAML syntax error (with the template it came from)
 */
export function parseManifests(text) {
  const out = [];
  for (const document of parseAllDocuments(text)) {
    const comments = `${document.commentBefore ?? ''}\n${document.contents?.commentBefore ?? ''}`;
    const source = /Source: (\S+)/.exec(comments)?.[1];
    if (document.errors.length > 0) {
      throw new Error(
        `YAML error in ${source ?? 'rendered output'}: ${document.errors[0].message}`,
      );
    }
    const doc = document.toJS();
    if (doc === null || doc === undefined) continue;
    out.push({ source, doc });
  }
  return out;
}

export { parse as parseYaml, parseAllDocuments } from 'yaml';

/**
 * The environment-variable tables of the READMEs, generated from the zod config schemas
 * themselves (README.md "Configuration"): each variable's description is its schema's
 * `.describe()` text, its type comes from `z.toJSONSchema` (output side) and its default from
 * parsing an absent value, so the tables cannot say something the schema does not do. Only zod's
 * public API is used (`description`, `z.toJSONSchema`, `safeParse`).
 */
import { z } from 'zod';
import { serviceConfigShape } from './service-config.js';

/**
 * How values are written: `env`, environment variables (a list is comma-separated); `json`, the
 * fields of a JSON-valued variable (e.g. an `INDEXER_CHAINS` entry; a list is a JSON array).
 */
export type EnvValueSyntax = 'env' | 'json';

/** One documented environment variable, or one field of a JSON-valued variable. */
export interface EnvVariableRow {
  /** The variable's name; a pattern variable is named with a placeholder, e.g. `RPC_URL_<DOMAIN>`. */
  readonly name: string;
  /** What the value must be, e.g. `integer 0-65535`, `boolean`, `URL`, `` `a`, `b` ``. */
  readonly type: string;
  /** The value taken when the variable is absent (or empty); `required` or `unset` when none. */
  readonly default: string;
  /** The schema's `.describe()` text. */
  readonly description: string;
}

/** Thrown by {@link envVariableRows} for variables whose schema has no description. */
class UndocumentedVariableError extends Error {
  constructor(readonly names: readonly string[]) {
    super(`environment variables without a .describe() text: ${names.join(', ')}`);
    this.name = 'UndocumentedVariableError';
  }
}

/** A JSON Schema node as `z.toJSONSchema` writes it (the keys read here). */
interface JsonSchemaNode {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: JsonSchemaNode;
  readonly anyOf?: readonly JsonSchemaNode[];
  readonly description?: string;
  readonly default?: unknown;
}

const code = (text: string) => `\`${text}\``;

/** The type of a value as its output JSON Schema describes it (see {@link EnvVariableRow.type}). */
function typeOf(node: JsonSchemaNode, syntax: EnvValueSyntax): string {
  if (node.enum)
    return node.enum.map((v) => code(syntax === 'json' ? JSON.stringify(v) : String(v))).join(', ');
  if (node.const !== undefined) return code(JSON.stringify(node.const));
  if (node.anyOf) return node.anyOf.map((n) => typeOf(n, syntax)).join(' or ');
  if (node.format === 'uri') return 'URL';
  switch (node.type) {
    case 'integer': {
      const min = node.minimum;
      // zod's `.int()` bounds an integer to the safe range: that is no upper bound of its own.
      const max = node.maximum === Number.MAX_SAFE_INTEGER ? undefined : node.maximum;
      if (min !== undefined && max !== undefined) return `integer ${min}-${max}`;
      return min !== undefined ? `integer >= ${min}` : 'integer';
    }
    case 'boolean':
      return 'boolean';
    case 'array':
      if (syntax === 'json') return `array of ${node.items ? typeOf(node.items, syntax) : 'text'}`;
      return node.items?.type === 'object' ? 'JSON array' : 'comma-separated list';
    case 'object':
      return 'JSON object';
    default:
      return 'text';
  }
}

/**
 * A value as a table cell, in code: for `env` a list joined with commas (`none` when empty) and
 * text as it is; for `json` the value as JSON.
 */
function valueCell(value: unknown, syntax: EnvValueSyntax): string {
  if (syntax === 'json') return code(JSON.stringify(value));
  if (Array.isArray(value)) return value.length === 0 ? 'none' : code(value.join(','));
  if (typeof value === 'object' && value !== null) return code(JSON.stringify(value));
  return code(String(value));
}

/**
 * The default as a table cell: the default as the variable's text when the schema declares it
 * (`.prefault`, or a `.default` before a transform), else the parsed value of an absent
 * variable; `required` when absence fails, `unset` when it parses to undefined.
 */
function defaultOf(schema: z.ZodType, input: JsonSchemaNode, syntax: EnvValueSyntax): string {
  if (input.default !== undefined) return valueCell(input.default, syntax);
  const parsed = schema.safeParse(undefined);
  if (!parsed.success) return 'required';
  return parsed.data === undefined ? 'unset' : valueCell(parsed.data, syntax);
}

/**
 * The rows of the variables of `shape` (a config schema's `.shape`, or an object of pattern
 * variables keyed by their placeholder names), in the shape's order. The type is read from each
 * schema's output JSON Schema (`unrepresentable: 'any'`; a transform that declares no type via
 * `.meta({ type })` reads as `text`), the default from its input JSON Schema or, when that has
 * none (a bigint, a default inside a transform), from parsing an absent value. With `syntax`
 * `json`, `shape` is the object schema of a JSON-valued variable and the rows are its fields.
 *
 * @throws UndocumentedVariableError naming every variable (or field) without a description.
 */
export function envVariableRows(
  shape: Readonly<Record<string, z.ZodType>>,
  syntax: EnvValueSyntax = 'env',
): EnvVariableRow[] {
  const missing: string[] = [];
  const rows = Object.entries(shape).map(([name, schema]): EnvVariableRow => {
    const output = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
    const input = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    const description = schema.description ?? output.description;
    if (!description) missing.push(name);
    return {
      name,
      type: typeOf(output as JsonSchemaNode, syntax),
      default: defaultOf(schema, input as JsonSchemaNode, syntax),
      description: description ?? '',
    };
  });
  if (missing.length > 0) throw new UndocumentedVariableError(missing);
  return rows;
}

/**
 * The variables of an app's `shape` that its own table lists: those it defines itself, and the
 * shared ones ({@link serviceConfigShape}) it redefines (another default or range). The shared
 * ones it takes as they are are listed once, in the table of {@link serviceConfigShape}.
 */
export function ownVariables(
  shape: Readonly<Record<string, z.ZodType>>,
): Record<string, z.ZodType> {
  const shared: Readonly<Record<string, z.ZodType>> = serviceConfigShape;
  return Object.fromEntries(Object.entries(shape).filter(([name, s]) => shared[name] !== s));
}

/** A table cell: pipes escaped, white space folded onto one line. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/**
 * The rows as a GitHub markdown table (`Variable | Type | Default | Meaning`, or `Field | ...`
 * for the fields of a JSON value), one line per row; column padding is left to the formatter
 * (prettier) of the file it goes into.
 */
export function renderEnvTable(
  rows: readonly EnvVariableRow[],
  nameHeader: 'Variable' | 'Field' = 'Variable',
): string {
  const lines = [
    `| ${nameHeader} | Type | Default | Meaning |`,
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| ${code(r.name)} | ${cell(r.type)} | ${cell(r.default)} | ${cell(r.description)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

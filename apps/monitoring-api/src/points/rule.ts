/**
 * The swap points rule (docs/decisions.md "D150. Swap points from transfers"): how many points a
 * transfer earns its sender. Configuration, validated once at start-up (POINTS_PER_USD,
 * POINTS_MULTIPLIERS); every value is a fixed-point integer so the job's arithmetic is exact:
 *
 *   points_micro(transfer) = floor(deposit_amount * per_usd_micro * multiplier_bp / 10^10)
 *
 * deposit_amount in base units of the bridge asset (10^6 per USD), per_usd_micro in millionths
 * of a point per USD, multiplier_bp in basis points (10 000 = x1). A wallet's swap points are the
 * sum of its transfers' points_micro / 10^6.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Parses a non-negative decimal string with at most `decimals` fraction digits into an integer of that scale. */
function fixedPoint(decimals: number) {
  return z
    .string()
    .trim()
    .regex(
      new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`),
      `must be a non-negative decimal with at most ${decimals} fraction digits`,
    )
    .transform((text) => {
      const [whole = '0', fraction = ''] = text.split('.');
      return Number(
        BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0')),
      );
    });
}

/** One period / route multiplier; a transfer matching several gets the highest one. */
export const PointsMultiplier = z
  .object({
    /** Source CCTP domain the multiplier applies to; absent = any. */
    source_domain: z.number().int().min(0).max(4_294_967_295).optional(),
    /** Destination CCTP domain; absent = any. */
    destination_domain: z.number().int().min(0).max(4_294_967_295).optional(),
    /** Start of the period (ISO 8601, inclusive) by the transfer's created_at; absent = always. */
    from: z.string().datetime({ offset: true }).optional(),
    /** End of the period (exclusive); absent = open-ended. */
    to: z.string().datetime({ offset: true }).optional(),
    /** Multiplier as a decimal string with up to 4 fraction digits, e.g. "1.5"; "0" excludes. */
    multiplier: fixedPoint(4),
  })
  .strict();

/** A parsed multiplier: `multiplier` in basis points. */
export type PointsMultiplier = z.output<typeof PointsMultiplier>;

/** Environment variables of the points rule. */
export const pointsConfigSchema = z.object({
  POINTS_PER_USD: fixedPoint(6)
    .prefault('1')
    .describe(
      "swap points per USD of a counted transfer's `deposit_amount`, a decimal with up to 6 fraction digits (docs/decisions.md D150)",
    ),
  POINTS_MULTIPLIERS: z
    .string()
    .default('[]')
    .transform((text, ctx) => {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array' });
        return z.NEVER;
      }
      const parsed = z.array(PointsMultiplier).max(100).safeParse(json);
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
        return z.NEVER;
      }
      return parsed.data;
    })
    .meta({ type: 'array', items: { type: 'object' } })
    .describe(
      'JSON array of route / period points multipliers (`source_domain`, `destination_domain`, `from`, `to`, `multiplier`), e.g. `[{"source_domain":0,"destination_domain":3,"multiplier":"2"}]`; the highest match applies (docs/decisions.md D150)',
    ),
});

/** The rule the points job applies. */
export interface PointsRule {
  /** Millionths of a point per USD of deposit_amount. */
  readonly perUsdMicro: number;
  /** Route / period multipliers (basis points). */
  readonly multipliers: readonly PointsMultiplier[];
}

/** The rule of a parsed configuration. */
export function pointsRuleOf(config: {
  POINTS_PER_USD: number;
  POINTS_MULTIPLIERS: readonly PointsMultiplier[];
}): PointsRule {
  return { perUsdMicro: config.POINTS_PER_USD, multipliers: config.POINTS_MULTIPLIERS };
}

/**
 * The rule's version: the first 12 hex digits of SHA-256 over its canonical JSON, so equal rules
 * have equal versions and any change gives a new one (the job rebuilds on a change).
 */
export function ruleVersion(rule: PointsRule): string {
  const canonical = JSON.stringify({
    per_usd_micro: rule.perUsdMicro,
    multipliers: rule.multipliers.map((m) => [
      m.source_domain ?? null,
      m.destination_domain ?? null,
      m.from ? new Date(m.from).toISOString() : null,
      m.to ? new Date(m.to).toISOString() : null,
      m.multiplier,
    ]),
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}

/** A transfer's fields the rule reads. */
export interface RuleTransfer {
  source_domain: number;
  destination_domain: number;
  /** Base units (10^6 per USD). */
  deposit_amount: bigint;
  created_at: Date;
}

/** The multiplier of a transfer, basis points (10 000 when none matches). */
function multiplierBp(rule: PointsRule, t: RuleTransfer): number {
  let best: number | undefined;
  for (const m of rule.multipliers) {
    if (m.source_domain !== undefined && m.source_domain !== t.source_domain) continue;
    if (m.destination_domain !== undefined && m.destination_domain !== t.destination_domain)
      continue;
    if (m.from && t.created_at.getTime() < new Date(m.from).getTime()) continue;
    if (m.to && t.created_at.getTime() >= new Date(m.to).getTime()) continue;
    best = best === undefined ? m.multiplier : Math.max(best, m.multiplier);
  }
  return best ?? 10_000;
}

/** Points of one counted transfer in millionths of a point (the rule in plain TypeScript). */
export function transferPointsMicro(rule: PointsRule, t: RuleTransfer): bigint {
  return (
    (t.deposit_amount * BigInt(rule.perUsdMicro) * BigInt(multiplierBp(rule, t))) / 10_000_000_000n
  );
}

/**
 * The app's Prometheus instruments on top of server-kit's HTTP metrics: quotes signed, cache reuse,
 * price age per chain and WebSocket clients.
 */
import { createMetrics, type Metrics } from '@ctss/server-kit';
import { Counter, Gauge } from 'prom-client';

/** Every instrument of the Gas Quote API. */
export interface GasQuoteMetrics extends Metrics {
  /** `gas_quote_quotes_signed_total{scheme,cached}`: quotes returned, by signature scheme and LRU reuse. */
  readonly quotesSigned: Counter<'scheme' | 'cached'>;
  /** `gas_quote_price_age_seconds{domain,kind}`: age of the stored gas / USD entry per chain. */
  readonly priceAge: Gauge<'domain' | 'kind'>;
  /** `gas_quote_websocket_clients`: connected /subscribe clients. */
  readonly wsClients: Gauge;
  /** `gas_quote_websocket_dropped_total{reason}`: clients dropped as slow or dead. */
  readonly wsDropped: Counter<'reason'>;
  /** Sets where `priceAge` reads at each scrape: in-process values only (the app wires its price snapshot in). */
  setPriceAgeProvider(provider: PriceAgeProvider): void;
}

/** One price entry's age for the `priceAge` gauge. */
export interface PriceAgeSample {
  readonly domain: number;
  readonly kind: 'gas' | 'usd';
  readonly ageSeconds: number;
}
/** The current ages of the entries, from in-process state (a scrape reads no backend). */
type PriceAgeProvider = () => readonly PriceAgeSample[];

/** Creates a fresh registry (one per app instance) with all instruments. */
export function createGasQuoteMetrics(): GasQuoteMetrics {
  const base = createMetrics({ prefix: 'gas_quote_' });
  const registers = [base.registry];
  let provider: PriceAgeProvider = () => [];
  return {
    setPriceAgeProvider(p) {
      provider = p;
    },
    ...base,
    quotesSigned: new Counter({
      name: 'gas_quote_quotes_signed_total',
      help: 'Quotes returned by signature scheme; cached="true" when reused from the in-process LRU',
      labelNames: ['scheme', 'cached'],
      registers,
    }),
    priceAge: new Gauge({
      name: 'gas_quote_price_age_seconds',
      help: 'Age of the price entry per domain (kind="gas" or "usd") in the in-process copy of the store, seconds',
      labelNames: ['domain', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const s of provider())
          this.set({ domain: String(s.domain), kind: s.kind }, s.ageSeconds);
      },
    }),
    wsClients: new Gauge({
      name: 'gas_quote_websocket_clients',
      help: 'Connected /subscribe WebSocket clients',
      registers,
    }),
    wsDropped: new Counter({
      name: 'gas_quote_websocket_dropped_total',
      help: 'WebSocket clients dropped by reason (slow, dead)',
      labelNames: ['reason'],
      registers,
    }),
  };
}

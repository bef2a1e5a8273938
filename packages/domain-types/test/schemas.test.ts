import { describe, expect, it } from '@jest/globals';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import {
  EcdsaQuoteQuery,
  Ed25519QuoteQuery,
  TestnetTransactionRecord,
  TransactionCursor,
  TransactionRecord,
  TransactionPage,
  problem,
  ProblemDetails,
} from '../src/index.js';

/** A full mainnet record, its keys in the order of the docs/api.md "Transaction record" table. */
const record = {
  id: 1,
  source_tx_hash: '0xabc',
  destination_tx_hash: null,
  gas_drop_tx_hash: null,
  source_domain: 0,
  destination_domain: 600001,
  sender: '0x1111111111111111111111111111111111111111',
  recipient: '0x2222222222222222222222222222222222222222',
  deposit_amount: 10_000_000n,
  receive_amount: 9_900_000n,
  relayer_fee: 80_000n,
  gas_drop_amount: 0n,
  is_gas_drop_in_native: false,
  max_fee: 1_000n,
  version: 2,
  confirmed: true,
  has_source_tx_error: false,
  has_attestation_error: false,
  has_destination_tx_error: false,
  destination_tx_status: 'success',
  created_at: '2026-11-21T10:00:00.000Z',
  attested_at: '2026-11-21T10:00:09.250Z',
  received_at: '2026-11-21T10:00:14.000Z',
  updated_at: '2026-11-21T10:00:15.120Z',
  message_hash: `0x${'ab'.repeat(32)}`,
  nonce: `0x${'cd'.repeat(32)}`,
  fee_executed: 3_000n,
  min_finality_threshold: 1000,
};

describe('resource schemas', () => {
  it('accept a full record with a non-CCTP uint32 route id, and reject a non-uint32 domain', () => {
    expect(TransactionRecord.parse(record).destination_domain).toBe(600001);
    expect(() => TransactionRecord.parse({ ...record, source_domain: 2 ** 32 })).toThrow();
    expect(() => TransactionRecord.parse({ ...record, destination_tx_status: 'done' })).toThrow();
  });

  it('accept a pending v2 record with the explorer fields not known yet, and require updated_at', () => {
    const pending = {
      ...record,
      attested_at: null,
      received_at: null,
      message_hash: null,
      nonce: null,
      fee_executed: null,
    };
    expect(TransactionRecord.parse(pending).fee_executed).toBeNull();
    expect(() => TransactionRecord.parse({ ...pending, updated_at: null })).toThrow();
    expect(() => TransactionRecord.parse({ ...record, received_at: '2026-11-21 10:00' })).toThrow();
  });

  it('list the mainnet record in the order of the spec table (the feed writes it so)', () => {
    expect(Object.keys(TransactionRecord.shape)).toEqual(Object.keys(record));
  });

  it('keep exactly the spec subset for the testnet record, in its order (the feed writes it so)', () => {
    expect(Object.keys(TestnetTransactionRecord.shape)).toEqual([
      'id',
      'source_tx_hash',
      'source_domain',
      'destination_domain',
      'sender',
      'recipient',
      'deposit_amount',
      'receive_amount',
      'max_fee',
      'relayer_fee',
      'gas_drop_amount',
      'is_gas_drop_in_native',
      'confirmed',
      'created_at',
    ]);
  });

  it.each([
    ['1700000000_42', true],
    ['0_0', true],
    ['', false],
    ['1700000000', false],
    ['-1_2', false],
    ['01_2', false],
    ['1_2_3', false],
    ["1_2' OR 1=1", false],
  ])('cursor %p valid: %s', (cursor, ok) => {
    expect(TransactionCursor.safeParse(cursor).success).toBe(ok);
  });

  it('parse quote queries strictly: booleans as true/false, canonical uint32 domains', () => {
    expect(
      EcdsaQuoteQuery.parse({
        localDomain: '0',
        destinationDomain: '3',
        isV2: 'true',
        isNative: 'false',
      }),
    ).toEqual({
      localDomain: 0,
      destinationDomain: 3,
      isV2: true,
      isNative: false,
    });
    for (const bad of [
      { localDomain: '0', destinationDomain: '3', isV2: '1', isNative: 'false' },
      { localDomain: '-1', destinationDomain: '3', isV2: 'true', isNative: 'false' },
      { localDomain: '00', destinationDomain: '3', isV2: 'true', isNative: 'false' },
      { localDomain: '4294967296', destinationDomain: '3', isV2: 'true', isNative: 'false' },
      { localDomain: '0', destinationDomain: '3', isV2: 'true' },
      { localDomain: '0', destinationDomain: '3', isV2: 'true', isNative: 'false', extra: 'x' },
    ]) {
      expect(EcdsaQuoteQuery.safeParse(bad).success).toBe(false);
    }
    expect(
      Ed25519QuoteQuery.parse({
        localDomain: '5',
        destinationDomain: '0',
        isNative: 'true',
        version: '2',
      }).version,
    ).toBe(2);
    expect(
      Ed25519QuoteQuery.safeParse({
        localDomain: '5',
        destinationDomain: '0',
        isNative: 'true',
        version: '3',
      }).success,
    ).toBe(false);
  });

  it('build RFC 9457 problem bodies with a stable code', () => {
    const body = problem(400, 'UNSUPPORTED_ROUTE', 'no CCTP v2 route from 8 to 0');
    expect(ProblemDetails.parse(body)).toEqual({
      type: 'urn:ctss:problem:unsupported-route',
      title: 'Unsupported route',
      status: 400,
      detail: 'no CCTP v2 route from 8 to 0',
      code: 'UNSUPPORTED_ROUTE',
    });
  });

  it('generate OpenAPI with integer amounts', () => {
    const registry = new OpenAPIRegistry();
    registry.register('TransactionPage', TransactionPage);
    const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
    });
    const schemas = doc.components?.schemas as Record<
      string,
      { properties: Record<string, { type?: string }> }
    >;
    expect(schemas.TransactionRecord?.properties.deposit_amount?.type).toBe('integer');
    expect(schemas.TransactionRecord?.properties.destination_tx_hash).toBeDefined();
  });
});

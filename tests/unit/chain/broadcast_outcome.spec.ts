import { test } from '@japa/runner'
import { decideBroadcastOutcome } from '#chain/broadcast_outcome'

const TXID = 'ab'.repeat(32)

test.group('Deciding what a broadcast answer means', () => {
  test('200 with a txid is accepted, with the txid normalised', ({ assert }) => {
    assert.deepEqual(decideBroadcastOutcome(200, `0x${TXID.toUpperCase()}`), {
      kind: 'accepted',
      txid: TXID,
    })
  })

  test('each node rejection reason maps to its stable code', ({ assert }) => {
    const cases: [string, string][] = [
      ['BadNonce', 'bad_nonce'],
      ['ConflictingNonceInMempool', 'conflicting_nonce'],
      ['NotEnoughFunds', 'insufficient_funds'],
      ['FeeTooLow', 'fee_too_low'],
      ['SignatureValidation', 'invalid_signature'],
      ['Deserialization', 'invalid_transaction'],
      ['BadTransactionVersion', 'invalid_network'],
      ['TooMuchChaining', 'too_much_chaining'],
      ['TransferRecipientCannotEqualSender', 'recipient_is_sender'],
      ['SomethingNew', 'rejected'],
    ]
    for (const [reason, code] of cases) {
      const outcome = decideBroadcastOutcome(400, {
        error: 'transaction rejected',
        reason,
        reason_data: { x: 1 },
        txid: TXID,
      })
      assert.deepEqual(outcome, {
        kind: 'rejected',
        code,
        reason,
        reasonData: { x: 1 },
        txid: TXID,
      } as never)
    }
  })

  test('429 is a rate limit carrying Retry-After', ({ assert }) => {
    assert.deepEqual(decideBroadcastOutcome(429, 'slow down', '3'), {
      kind: 'rate_limited',
      retryAfterSeconds: 3,
    })
    for (const retryAfter of ['soon', '', null, undefined]) {
      assert.deepEqual(decideBroadcastOutcome(429, null, retryAfter), {
        kind: 'rate_limited',
        retryAfterSeconds: undefined,
      })
    }
  })

  test('server errors and unreadable answers leave the outcome unknown', ({ assert }) => {
    for (const [status, body] of [
      [500, { reason: 'BadNonce' }],
      [502, undefined],
      [200, { not: 'a txid' }],
      [400, '<html>'],
    ] as [number, unknown][]) {
      assert.equal(decideBroadcastOutcome(status, body).kind, 'unknown')
    }
  })
})

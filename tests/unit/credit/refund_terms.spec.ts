import { test } from '@japa/runner'
import { formatSiwsMessage } from '#auth/siws_message'
import { refundStatement, refundTermsOf } from '#credit/refund_terms'

const WALLET = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG'
const OTHER = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC'

function message(statement: string, address = WALLET, nonce = 'a1b2c3d4e5f60718293a4b5c6d7e8f90') {
  return formatSiwsMessage({
    domain: 'tollbooth.example',
    uri: 'https://tollbooth.example',
    chainId: 2_147_483_648,
    address,
    statement,
    nonce,
    issuedAt: new Date('2026-01-01T00:00:00.000Z'),
    expiresAt: new Date('2026-01-01T00:05:00.000Z'),
  })
}

test.group('The terms of a signed refund message', () => {
  test('name the wallet, the amount and the nonce, and one key per nonce', ({ assert }) => {
    const terms = refundTermsOf(message(refundStatement(2_500_000n, WALLET)))
    const again = refundTermsOf(message(refundStatement(1_000_000n, WALLET)))
    const otherNonce = refundTermsOf(
      message(refundStatement(2_500_000n, WALLET), WALLET, 'ffeeddccbbaa99887766554433221100')
    )

    assert.deepEqual(
      { address: terms?.address, amount: terms?.amount, nonce: terms?.nonce },
      { address: WALLET, amount: 2_500_000n, nonce: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' }
    )
    assert.match(
      terms!.idempotencyKey,
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
    )
    assert.equal(again?.idempotencyKey, terms?.idempotencyKey)
    assert.notEqual(otherNonce?.idempotencyKey, terms?.idempotencyKey)
  })

  test('are none for a message that pays another address, or is no refund, or is not canonical', ({
    assert,
  }) => {
    const refused = [
      message(refundStatement(2_500_000n, OTHER)),
      message('Sign in to Tollbooth.'),
      message('Refund 2.50 STX of my Tollbooth credit to ' + WALLET + '.'),
      message('Refund 2.5 STX of my Tollbooth credit to ' + WALLET),
      `${message(refundStatement(2_500_000n, WALLET))}\nExtra: line`,
      'not a message at all',
    ]

    assert.deepEqual(
      refused.map((text) => refundTermsOf(text)),
      refused.map(() => null)
    )
  })
})

import { test } from '@japa/runner'
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http'
import { PaymentRequiredV2Schema } from '@x402/core/schemas'
import { NETWORKS } from '#chain/network'
import { paymentRequired } from '#payments/x402'
import {
  decodePaymentSignature,
  encodeHeader,
  encodeSettlementResponse,
} from '#payments/x402_codec'

const required = paymentRequired({
  baseUrl: 'https://tollbooth.example',
  path: '/feeds/whale-alerts',
  query: {},
  description: 'Whale Alerts',
  price: 5_000n,
  payTo: 'ST1T1K4ACCVFGTEYBBTP22PYKBF4NAT988ZYG2GG5',
  network: NETWORKS.devnet,
})

test.group('Interoperability with @x402/core v2', () => {
  test('our 402 requirements parse with its PaymentRequired v2 schema and header decoder', ({
    assert,
  }) => {
    assert.isTrue(PaymentRequiredV2Schema.safeParse(required).success)
    assert.deepEqual(decodePaymentRequiredHeader(encodeHeader(required)), required)
  })

  test('a payment header encoded by its client decodes with ours', async ({ assert }) => {
    const header = encodePaymentSignatureHeader({
      x402Version: 2,
      resource: required.resource,
      accepted: required.accepts[0],
      payload: { transaction: 'ab'.repeat(100) },
    })

    const decoded = await decodePaymentSignature(header, required.accepts[0])

    assert.isTrue(decoded.ok)
  })

  test('our payment-response decodes with its decoder', ({ assert }) => {
    const settlement = {
      success: true,
      transaction: `0x${'ef'.repeat(32)}`,
      network: 'stacks:2147483648',
      payer: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
    }

    assert.deepEqual(decodePaymentResponseHeader(encodeSettlementResponse(settlement)), settlement)
  })
})

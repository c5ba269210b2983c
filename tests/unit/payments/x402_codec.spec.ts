import { test } from '@japa/runner'
import { NETWORKS } from '#chain/network'
import { paymentRequired, resourceIdentity } from '#payments/x402'
import {
  decodePaymentSignature,
  encodeHeader,
  encodeSettlementResponse,
} from '#payments/x402_codec'

const PAY_TO = 'ST1T1K4ACCVFGTEYBBTP22PYKBF4NAT988ZYG2GG5'
const required = paymentRequired({
  baseUrl: 'https://tollbooth.example',
  path: '/feeds/token-intel',
  query: { chain: 'ethereum', address: '0xabc' },
  description: 'Token Intel',
  price: 50_000n,
  payTo: PAY_TO,
  network: NETWORKS.devnet,
})
const requirement = required.accepts[0]
const TX = 'ab'.repeat(120)

function header(overrides: Record<string, unknown> = {}) {
  return encodeHeader({
    x402Version: 2,
    accepted: requirement,
    payload: { transaction: TX },
    ...overrides,
  })
}

test.group('x402 payment requirements', () => {
  test('describe the resource, ask for the price in µSTX to the platform wallet and offer payment-identifier', ({
    assert,
  }) => {
    assert.deepEqual(required, {
      x402Version: 2,
      resource: {
        url: 'https://tollbooth.example/feeds/token-intel?address=0xabc&chain=ethereum',
        description: 'Token Intel',
        mimeType: 'application/json',
      },
      accepts: [
        {
          scheme: 'exact',
          network: 'stacks:2147483648',
          amount: '50000',
          asset: 'STX',
          payTo: PAY_TO,
          maxTimeoutSeconds: 300,
          extra: {},
        },
      ],
      extensions: {
        'payment-identifier': {
          info: { required: false },
          schema: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: {
              required: { type: 'boolean' },
              id: { type: 'string', minLength: 16, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' },
            },
            required: ['required'],
          },
        },
      },
    })
  })

  test('a resource is the same purchase whatever the order of its query parameters', ({
    assert,
  }) => {
    assert.equal(
      resourceIdentity('get', '/feeds/x', { b: '2', a: '1' }),
      resourceIdentity('GET', '/feeds/x', { a: '1', b: '2' })
    )
    assert.notEqual(
      resourceIdentity('GET', '/feeds/x', { a: '1' }),
      resourceIdentity('GET', '/feeds/x', { a: '2' })
    )
  })
})

test.group('Decoding the payment-signature header', () => {
  for (const [shape, extension] of [
    [
      'in info, as x402 clients send it',
      { info: { required: false, id: 'client-secret-id-0001' } },
    ],
    ['bare', { id: 'client-secret-id-0001' }],
  ] as const) {
    test(`accepts a well-formed payment and its payment-identifier (${shape})`, async ({
      assert,
    }) => {
      const result = await decodePaymentSignature(
        header({
          payload: { transaction: `0x${TX.toUpperCase()}` },
          resource: required.resource,
          extensions: { 'payment-identifier': extension },
        }),
        requirement
      )

      assert.deepEqual(result, {
        ok: true,
        payment: {
          accepted: requirement,
          transaction: TX,
          paymentIdentifier: 'client-secret-id-0001',
        },
      })
    })
  }

  test('refuses each malformed header with a stable code', async ({ assert }) => {
    const cases: [string, string][] = [
      ['%%%not base64%%%', 'invalid_payload'],
      ['', 'invalid_payload'],
      [Buffer.from('not json').toString('base64'), 'invalid_payload'],
      [encodeHeader(['an', 'array']), 'invalid_payload'],
      [Buffer.from('"a string"').toString('base64'), 'invalid_payload'],
      [header({ payload: { transaction: 'xyz' } }), 'invalid_payload'],
      [header({ payload: { transaction: 'abc' } }), 'invalid_payload'],
      [header({ payload: {} }), 'invalid_payload'],
      [header({ x402Version: 1 }), 'invalid_x402_version'],
      [header({ accepted: { ...requirement, scheme: 'upto' } }), 'unsupported_scheme'],
      [header({ accepted: { ...requirement, network: 'stacks:1' } }), 'invalid_network'],
      [header({ accepted: { ...requirement, network: 'eip155:8453' } }), 'invalid_network'],
      [header({ accepted: { ...requirement, amount: '1' } }), 'invalid_payment_requirements'],
      [
        header({
          accepted: { ...requirement, payTo: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG' },
        }),
        'invalid_payment_requirements',
      ],
      [header({ extensions: { 'payment-identifier': { id: 'short' } } }), 'invalid_payload'],
      [
        header({ extensions: { 'payment-identifier': { info: { id: 'has spaces in it!!' } } } }),
        'invalid_payload',
      ],
      ['A'.repeat(70_000), 'invalid_payload'],
    ]
    for (const [value, code] of cases) {
      const result = await decodePaymentSignature(value, requirement)
      assert.isFalse(result.ok, value.slice(0, 40))
      assert.equal(!result.ok && result.refusal.code, code, value.slice(0, 40))
    }
  })
})

test.group('The payment-response header', () => {
  test('is base64 of the settlement JSON', ({ assert }) => {
    const encoded = encodeSettlementResponse({
      success: true,
      transaction: `0x${'cd'.repeat(32)}`,
      network: 'stacks:2147483648',
      payer: PAY_TO,
    })

    assert.deepEqual(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')), {
      success: true,
      transaction: `0x${'cd'.repeat(32)}`,
      network: 'stacks:2147483648',
      payer: PAY_TO,
    })
  })
})

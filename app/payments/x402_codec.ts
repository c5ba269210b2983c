import vine, { errors as vineErrors } from '@vinejs/vine'
import { type Refusable, refuse } from '#payments/payment_refusal'
import type { ExactStxRequirement, SettlementResponse } from '#payments/x402'

export interface DecodedPayment {
  accepted: { scheme: string; network: string; amount: string; asset: string; payTo: string }
  /** Hex of the signed transaction, without 0x. */
  transaction: string
  /** The client's x402 `payment-identifier` extension id, when it sent one. */
  paymentIdentifier?: string
}

const MAX_HEADER_LENGTH = 64 * 1024
/** x402's payment-identifier id (16–128 of A–Z a–z 0–9 _ -); the credit call's header takes it too. */
export const paymentIdentifierRule = () => vine.string().regex(/^[A-Za-z0-9_-]{16,128}$/)
const paymentIdentifier = paymentIdentifierRule()

const paymentSignature = vine.create(
  vine
    .object({
      x402Version: vine.number(),
      accepted: vine
        .object({
          scheme: vine.string(),
          network: vine.string(),
          amount: vine.string().regex(/^\d{1,20}$/),
          asset: vine.string(),
          payTo: vine.string().maxLength(64),
        })
        .allowUnknownProperties(),
      payload: vine.object({
        transaction: vine
          .string()
          .maxLength(MAX_HEADER_LENGTH)
          .regex(/^(0x)?([0-9a-fA-F]{2})+$/),
      }),
      resource: vine.object({}).allowUnknownProperties().optional(),
      extensions: vine
        .object({
          // x402 clients send the id in `info`; a bare `id` is accepted as well.
          'payment-identifier': vine
            .object({
              info: vine
                .object({ id: paymentIdentifier.clone().optional() })
                .allowUnknownProperties()
                .optional(),
              id: paymentIdentifier.clone().optional(),
            })
            .allowUnknownProperties()
            .optional(),
        })
        .allowUnknownProperties()
        .optional(),
    })
    .allowUnknownProperties()
)

/**
 * Decodes and validates the `payment-signature` header (base64 of the JSON
 * payment payload) against the requirement the resource currently asks for.
 * Never throws: every malformed input is a refusal with an x402 error code.
 */
export async function decodePaymentSignature(
  header: string,
  requirement: ExactStxRequirement
): Promise<Refusable<{ payment: DecodedPayment }>> {
  if (
    header.length === 0 ||
    header.length > MAX_HEADER_LENGTH ||
    !/^[A-Za-z0-9+/_-]+={0,2}$/.test(header.trim())
  ) {
    return refuse('invalid_payload', 'payment-signature is not base64')
  }
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(header.trim(), 'base64').toString('utf8'))
  } catch {
    return refuse('invalid_payload', 'payment-signature does not decode to JSON')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return refuse('invalid_payload', 'payment-signature must be a JSON object')
  }

  let payload: Awaited<ReturnType<typeof paymentSignature.validate>>
  try {
    payload = await paymentSignature.validate(json)
  } catch (error) {
    if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
    const first = (error.messages as { field: string; message: string }[])[0]
    return refuse('invalid_payload', `payment-signature: ${first.field}: ${first.message}`)
  }

  if (payload.x402Version !== 2)
    return refuse('invalid_x402_version', 'only x402Version 2 is supported')
  if (payload.accepted.scheme !== 'exact')
    return refuse('unsupported_scheme', 'only the "exact" scheme is supported')
  if (payload.accepted.network !== requirement.network) {
    return refuse('invalid_network', `this resource is paid on ${requirement.network}`)
  }
  if (
    payload.accepted.asset !== requirement.asset ||
    payload.accepted.payTo !== requirement.payTo ||
    payload.accepted.amount !== requirement.amount
  ) {
    return refuse(
      'invalid_payment_requirements',
      'accepted does not match the current payment requirements'
    )
  }

  return {
    ok: true,
    payment: {
      accepted: payload.accepted,
      transaction: payload.payload.transaction.replace(/^0x/, '').toLowerCase(),
      paymentIdentifier:
        payload.extensions?.['payment-identifier']?.info?.id ??
        payload.extensions?.['payment-identifier']?.id,
    },
  }
}

export function encodeHeader(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64')
}

export function encodeSettlementResponse(response: SettlementResponse): string {
  return encodeHeader(response)
}

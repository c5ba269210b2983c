import vine from '@vinejs/vine'

/** The seed's /verify and /settle body; scheme, network and asset default to ours. */
export const facilitatorRequestValidator = vine.create({
  x402Version: vine.number().withoutDecimals().optional(),
  paymentPayload: vine
    .object({
      payload: vine.object({
        transaction: vine
          .string()
          .maxLength(65_536)
          .regex(/^(0x)?([0-9a-fA-F]{2})+$/),
      }),
    })
    .allowUnknownProperties(),
  paymentRequirements: vine
    .object({
      amount: vine.string().regex(/^\d{1,20}$/),
      payTo: vine.string().maxLength(64),
      scheme: vine.string().maxLength(32).optional(),
      network: vine.string().maxLength(64).optional(),
      asset: vine.string().maxLength(64).optional(),
    })
    .allowUnknownProperties(),
})

export type FacilitatorRequest = Awaited<ReturnType<typeof facilitatorRequestValidator.validate>>

import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'

/** Ethplorer writes `price: false` for tokens it has no price for. */
const ethplorerPrice = vine.unionOfTypes([
  vine.object({ rate: vine.number() }).allowUnknownProperties(),
  vine.boolean(),
])

const ethplorerTokenInfo = vine
  .object({
    address: vine.string(),
    symbol: vine.string().optional(),
    decimals: vine.number().optional(),
    price: ethplorerPrice.optional(),
  })
  .allowUnknownProperties()

export type EthplorerTokenInfo = Infer<typeof ethplorerTokenInfo>

/** GET /getAddressInfo/{address}: ETH balance and token holdings. */
export const addressInfoSchema = vine.create(
  vine
    .object({
      ETH: vine
        .object({ balance: vine.number(), price: ethplorerPrice.optional() })
        .allowUnknownProperties()
        .optional(),
      tokens: vine
        .array(
          vine
            .object({
              balance: vine.number(),
              rawBalance: vine.number().optional(),
              tokenInfo: ethplorerTokenInfo,
            })
            .allowUnknownProperties()
        )
        .optional(),
    })
    .allowUnknownProperties()
)

/** GET /getAddressHistory/{address}: the latest token operations. */
export const addressHistorySchema = vine.create(
  vine
    .object({
      operations: vine.array(
        vine
          .object({
            timestamp: vine.number(),
            type: vine.string(),
            from: vine.string().optional(),
            to: vine.string().optional(),
            value: vine.number(),
            tokenInfo: ethplorerTokenInfo,
          })
          .allowUnknownProperties()
      ),
    })
    .allowUnknownProperties()
)

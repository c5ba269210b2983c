import vine from '@vinejs/vine'

/**
 * DefiLlama's GET /protocols: every listed protocol with its current TVL.
 * The fields the built-in feeds read (defi-scores, bridge-flows,
 * security-alerts); anything else passes through unchecked.
 */
export const defillamaProtocolsSchema = vine.create(
  vine.array(
    vine
      .object({
        id: vine.string().optional(),
        name: vine.string(),
        category: vine.string().nullable().optional(),
        chain: vine.string().nullable().optional(),
        chains: vine.array(vine.string()).optional(),
        tvl: vine.number().nullable().optional(),
        change_1d: vine.number().nullable().optional(),
        change_7d: vine.number().nullable().optional(),
        /** TVL per chain, plus non-chain keys ("staking", "Ethereum-borrowed", …). */
        chainTvls: vine.record(vine.number()).optional(),
        audits: vine.number().nullable().optional(),
        /** Unix seconds; absent for protocols listed before DefiLlama recorded it. */
        listedAt: vine.number().nullable().optional(),
        mcap: vine.number().nullable().optional(),
      })
      .allowUnknownProperties()
  )
)

/** Centralised exchanges and L1/L2 chains are listed too, but they are not DeFi protocols. */
export const NON_DEFI_CATEGORIES = new Set(['CEX', 'Chain'])

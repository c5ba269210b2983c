import { array, boolean, integer, number, object, string } from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    signal: string,
    net_inflow_usd: number,
    net_outflow_usd: number,
    top_inflows: array(object({ token: string, token_address: string, amount_usd: number })),
    top_outflows: array(object({ token: string, token_address: string, amount_usd: number })),
    gross_inflow_usd: number,
    gross_outflow_usd: number,
    window_hours: integer,
    wallets_tracked: integer,
    transfers_counted: number,
    unpriced_transfers: number,
    window_complete: boolean,
  }),
  example: {
    signal: 'STRONG_BUY',
    net_inflow_usd: 30064530.28,
    net_outflow_usd: 8660601.75,
    top_inflows: [
      {
        token: 'PEPE',
        token_address: '0x6982508145454ce325ddbe47a25d4ec3d2311933',
        amount_usd: 21703605.3,
      },
      {
        token: 'LINK',
        token_address: '0x514910771af9ca656af840dff83e8264ecf986ca',
        amount_usd: 3646430.45,
      },
    ],
    top_outflows: [
      {
        token: 'WETH',
        token_address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
        amount_usd: 8660601.75,
      },
    ],
    gross_inflow_usd: 62115019.08,
    gross_outflow_usd: 40711090.54,
    window_hours: 24,
    wallets_tracked: 3,
    transfers_counted: 113,
    unpriced_transfers: 7,
    window_complete: true,
  },
} satisfies BuiltinDeclaration

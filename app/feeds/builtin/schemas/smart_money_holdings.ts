import {
  array,
  boolean,
  integer,
  nullable,
  number,
  object,
  string,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    holdings: array(
      object({
        token: string,
        token_address: nullable(string),
        amount: number,
        value_usd: number,
        holders: integer,
        net_flow_24h_usd: nullable(number),
        signal: string,
      })
    ),
    total_value_usd: number,
    summary: object({
      token_count: integer,
      accumulating: number,
      distributing: number,
      neutral: integer,
      unpriced_positions: number,
    }),
    window_hours: integer,
    wallets_tracked: integer,
    window_complete: boolean,
  }),
  example: {
    holdings: [
      {
        token: 'PEPE',
        token_address: '0x6982508145454ce325ddbe47a25d4ec3d2311933',
        amount: 24842604927631.996,
        value_usd: 275168353.85,
        holders: 3,
        net_flow_24h_usd: 21703605.3,
        signal: 'accumulation',
      },
      {
        token: 'ETH',
        token_address: null,
        amount: 42152.4398,
        value_usd: 141168982.51,
        holders: 3,
        net_flow_24h_usd: null,
        signal: 'neutral',
      },
    ],
    total_value_usd: 603061611.02,
    summary: {
      token_count: 9,
      accumulating: 7,
      distributing: 1,
      neutral: 1,
      unpriced_positions: 3,
    },
    window_hours: 24,
    wallets_tracked: 3,
    window_complete: true,
  },
} satisfies BuiltinDeclaration

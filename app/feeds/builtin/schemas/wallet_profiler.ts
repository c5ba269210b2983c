import { chainParameter, evmAddressParameter } from '#feeds/builtin/query_rules'
import {
  array,
  integer,
  nullable,
  number,
  object,
  string,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

/** The wallet the example answer is for. */
const EXAMPLE_WALLET = '0x28c6c06298d514db089934071355e5743bf21d60'

export default {
  query: [
    evmAddressParameter('The wallet to profile', EXAMPLE_WALLET),
    chainParameter(['ethereum']),
  ],
  data: object({
    address: string,
    chain: string,
    total_value_usd: number,
    token_count: integer,
    unpriced_token_count: integer,
    holdings: array(
      object({
        token: string,
        token_address: nullable(string),
        amount: number,
        value_usd: number,
        allocation_pct: number,
      })
    ),
    concentration: object({ top_3_pct: number, top_5_pct: number, diversification: string }),
  }),
  example: {
    address: EXAMPLE_WALLET,
    chain: 'ethereum',
    total_value_usd: 255665319.75,
    token_count: 8,
    unpriced_token_count: 1,
    holdings: [
      {
        token: 'PEPE',
        token_address: '0x6982508145454ce325ddbe47a25d4ec3d2311933',
        amount: 13660224829701.54,
        value_usd: 151307062.63,
        allocation_pct: 59.18,
      },
      {
        token: 'WETH',
        token_address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
        amount: 19376.34,
        value_usd: 66682070.13,
        allocation_pct: 26.08,
      },
    ],
    concentration: {
      top_3_pct: 92.02,
      top_5_pct: 97.23,
      diversification: 'highly_concentrated',
    },
  },
} satisfies BuiltinDeclaration

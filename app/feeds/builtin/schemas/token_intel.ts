import { chainParameter, evmAddressParameter, TOKEN_INTEL_CHAINS } from '#feeds/builtin/query_rules'
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

/** The token the example answer is for. */
const PEPE = '0x6982508145454ce325ddbe47a25d4ec3d2311933'

export default {
  query: [
    evmAddressParameter('Contract address of the token', PEPE),
    chainParameter(TOKEN_INTEL_CHAINS),
  ],
  data: object({
    found: boolean,
    address: string,
    chain: string,
    token: nullable(object({ address: string, symbol: string, name: nullable(string) })),
    pair_count: integer,
    buys: integer,
    sells: integer,
    buy_sell_ratio: nullable(number),
    last_hour: object({ buys: integer, sells: integer }),
    volume_24h_usd: number,
    liquidity_usd: number,
    price_usd: nullable(number),
    price_change_24h: nullable(number),
    signal: string,
    top_pairs: array(
      object({
        pair_address: string,
        dex: string,
        pair: string,
        paired_with: string,
        price_usd: nullable(number),
        liquidity_usd: number,
        volume_24h_usd: number,
        buys: integer,
        sells: integer,
        url: nullable(string),
      })
    ),
  }),
  example: {
    found: true,
    address: PEPE,
    chain: 'ethereum',
    token: {
      address: PEPE,
      symbol: 'PEPE',
      name: 'Pepe',
    },
    pair_count: 2,
    buys: 12904,
    sells: 5534,
    buy_sell_ratio: 2.33,
    last_hour: {
      buys: 538,
      sells: 231,
    },
    volume_24h_usd: 46524889.65,
    liquidity_usd: 40081848.44,
    price_usd: 1.161e-5,
    price_change_24h: 3.64,
    signal: 'STRONG_BUY',
    top_pairs: [
      {
        pair_address: '0xA43fe16908251ee70EF74718545e4FE6C5cCEc9f',
        dex: 'uniswap',
        pair: 'PEPE/WETH',
        paired_with: 'WETH',
        price_usd: 1.161e-5,
        liquidity_usd: 31914565.27,
        volume_24h_usd: 36453107.97,
        buys: 10630,
        sells: 4559,
        url: 'https://dexscreener.com/ethereum/0xa43fe16908251ee70ef74718545e4fe6c5ccec9f',
      },
      {
        pair_address: '0x11950d141EcB863F01007AdD7D1A342041227b58',
        dex: 'uniswap',
        pair: 'PEPE/WETH',
        paired_with: 'WETH',
        price_usd: 1.161e-5,
        liquidity_usd: 8167283.17,
        volume_24h_usd: 10071781.68,
        buys: 2274,
        sells: 975,
        url: 'https://dexscreener.com/ethereum/0x11950d141ecb863f01007add7d1a342041227b58',
      },
    ],
  },
} satisfies BuiltinDeclaration

import {
  array,
  boolean,
  integer,
  mapOf,
  nullable,
  number,
  object,
  string,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    summary: object({
      distinct_tokens: number,
      boosted_tokens: number,
      recently_boosted: number,
      new_profiles: number,
      boosted_with_new_profile: number,
      total_active_boosts: number,
      top_chain: nullable(string),
    }),
    boosted_tokens: array(
      object({
        chain: string,
        token_address: string,
        url: string,
        total_boost_amount: number,
        latest_boost_amount: nullable(number),
        recently_boosted: boolean,
        has_new_profile: boolean,
        description: nullable(string),
        links: mapOf(string),
      })
    ),
    new_profiles: array(
      object({
        chain: string,
        token_address: string,
        url: string,
        description: nullable(string),
        links: mapOf(string),
        has_website: boolean,
        social_count: integer,
        boosted: boolean,
        total_boost_amount: number,
      })
    ),
    trending_chains: array(
      object({
        chain: string,
        tokens: integer,
        boosted_tokens: number,
        new_profiles: number,
        total_boost_amount: number,
        share_pct: number,
      })
    ),
    data_source: string,
  }),
  example: {
    summary: {
      distinct_tokens: 55,
      boosted_tokens: 38,
      recently_boosted: 30,
      new_profiles: 30,
      boosted_with_new_profile: 13,
      total_active_boosts: 12330,
      top_chain: 'solana',
    },
    boosted_tokens: [
      {
        chain: 'solana',
        token_address: 'kF7eA6qjUBWSx1KWs51KsiEjT8NKUNUMkF7eA6qjpump',
        url: 'https://dexscreener.com/solana/kf7ea6qjubwsx1kws51ksiejt8nkunumkf7ea6qjpump',
        total_boost_amount: 2000,
        latest_boost_amount: null,
        recently_boosted: false,
        has_new_profile: true,
        description: '$ZERO: an AI agent that trades its own treasury on-chain',
        links: {
          twitter: 'https://x.com/zero_token',
          website: 'https://zero.fun',
          discord: 'https://discord.gg/zero',
        },
      },
      {
        chain: 'solana',
        token_address: 'Mx4ov36PP24FVNC7a8RnQh8kvtUoG2oBMx4ov36Ppump',
        url: 'https://dexscreener.com/solana/mx4ov36pp24fvnc7a8rnqh8kvtuog2obmx4ov36ppump',
        total_boost_amount: 1400,
        latest_boost_amount: 50,
        recently_boosted: true,
        has_new_profile: false,
        description: '$WIFHAT: the dog is back, and this time he brought the hat',
        links: {
          twitter: 'https://x.com/wifhat_token',
          telegram: 'https://t.me/wifhatportal',
          website: 'https://wifhat.fun',
        },
      },
    ],
    new_profiles: [
      {
        chain: 'bsc',
        token_address: '0x76cedd7c8c12da11a1f4ee3e3e97d71c03e97e38',
        url: 'https://dexscreener.com/bsc/0x76cedd7c8c12da11a1f4ee3e3e97d71c03e97e38',
        description: '$PANDAX: the panda of BNB Chain',
        links: {
          twitter: 'https://x.com/pandax_token',
          telegram: 'https://t.me/pandaxportal',
        },
        has_website: false,
        social_count: 2,
        boosted: false,
        total_boost_amount: 0,
      },
      {
        chain: 'solana',
        token_address: 'pEdwP9uwXVFLtZGUiMMkgZwsbHeF6yKKpEdwP9uwpump',
        url: 'https://dexscreener.com/solana/pedwp9uwxvfltzguimmkgzwsbhef6ykkpedwp9uwpump',
        description: '$VOLT: charged by the community',
        links: {
          twitter: 'https://x.com/volt_token',
          telegram: 'https://t.me/voltportal',
          website: 'https://volt.fun',
        },
        has_website: true,
        social_count: 2,
        boosted: false,
        total_boost_amount: 0,
      },
    ],
    trending_chains: [
      {
        chain: 'solana',
        tokens: 26,
        boosted_tokens: 18,
        new_profiles: 16,
        total_boost_amount: 7300,
        share_pct: 47.27,
      },
      {
        chain: 'base',
        tokens: 9,
        boosted_tokens: 7,
        new_profiles: 4,
        total_boost_amount: 2230,
        share_pct: 16.36,
      },
    ],
    data_source: 'DEX Screener token boosts and token profiles',
  },
} satisfies BuiltinDeclaration

import {
  array,
  boolean,
  integer,
  nullable,
  object,
  string,
  timestamp,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    summary: object({
      window_days: integer,
      since: timestamp,
      total_commits: integer,
      most_active_repo: nullable(string),
      stacks_commits: integer,
      other_chain_commits: integer,
      by_chain: object({ stacks: integer, ethereum: integer, solana: integer }),
    }),
    repos: array(
      object({
        repo: string,
        chain: string,
        commit_count: integer,
        truncated: boolean,
        contributors: integer,
        bot_commits: integer,
        top_contributors: array(object({ login: string, commits: integer })),
        last_commit_at: nullable(timestamp),
      })
    ),
    recent_notable_commits: array(
      object({
        repo: string,
        chain: string,
        kind: string,
        sha: string,
        message: string,
        author: string,
        date: timestamp,
        url: string,
      })
    ),
    data_source: string,
  }),
  example: {
    summary: {
      window_days: 7,
      since: '2026-11-18T19:10:50Z',
      total_commits: 353,
      most_active_repo: 'anza-xyz/agave',
      stacks_commits: 122,
      other_chain_commits: 231,
      by_chain: {
        stacks: 122,
        ethereum: 31,
        solana: 200,
      },
    },
    repos: [
      {
        repo: 'stacks-network/stacks-core',
        chain: 'stacks',
        commit_count: 76,
        truncated: false,
        contributors: 9,
        bot_commits: 5,
        top_contributors: [
          {
            login: 'quillon',
            commits: 12,
          },
          {
            login: 'tbranwell',
            commits: 12,
          },
        ],
        last_commit_at: '2026-11-25T18:27:52Z',
      },
      {
        repo: 'hirosystems/stacks.js',
        chain: 'stacks',
        commit_count: 10,
        truncated: false,
        contributors: 2,
        bot_commits: 2,
        top_contributors: [
          {
            login: 'hollowtree',
            commits: 4,
          },
          {
            login: 'nadia-ruiz',
            commits: 4,
          },
        ],
        last_commit_at: '2026-11-24T23:38:48Z',
      },
    ],
    recent_notable_commits: [
      {
        repo: 'anza-xyz/agave',
        chain: 'solana',
        kind: 'fix',
        sha: 'e9cb1a1',
        message: 'scheduler: fix fee market edge case on restart (#9932)',
        author: 'arjun-m',
        date: '2026-11-25T18:53:54Z',
        url: 'https://github.com/anza-xyz/agave/commit/e9cb1a1ab75ba431ac09c94e0bbdc9025b07ccc8',
      },
      {
        repo: 'anza-xyz/agave',
        chain: 'solana',
        kind: 'fix',
        sha: '171d0de',
        message: 'svm: fix turbine retransmit edge case on restart (#9931)',
        author: 'turbine-tom',
        date: '2026-11-25T18:41:22Z',
        url: 'https://github.com/anza-xyz/agave/commit/171d0de271dd0706b898ded79d4a9c745239b0b2',
      },
    ],
    data_source: 'GitHub REST API (list commits)',
  },
} satisfies BuiltinDeclaration

import { defineError } from '#core/error_codes'

export const E_CHAIN_NODE_UNAVAILABLE = defineError<[detail: string]>(
  'chain_node_unavailable',
  'The Stacks node did not answer: %s'
)

export const E_CHAIN_NODE_BAD_ANSWER = defineError<[path: string]>(
  'chain_node_bad_answer',
  'The Stacks node answered %s with an unexpected body'
)

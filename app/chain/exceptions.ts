import { createError } from '@adonisjs/core/exceptions'

export const E_CHAIN_NODE_UNAVAILABLE = createError<[detail: string]>(
  'The Stacks node did not answer: %s',
  'E_CHAIN_NODE_UNAVAILABLE',
  503
)

export const E_CHAIN_NODE_BAD_ANSWER = createError<[path: string]>(
  'The Stacks node answered %s with an unexpected body',
  'E_CHAIN_NODE_BAD_ANSWER',
  502
)

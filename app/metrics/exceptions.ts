import { defineError } from '#core/error_codes'

export const E_METRICS_TOKEN_INVALID = defineError(
  'metrics_token_invalid',
  'GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`'
)

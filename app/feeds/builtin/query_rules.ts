import vine from '@vinejs/vine'

/** An EVM address query parameter: 0x and 40 hex digits, trimmed and lower-cased. */
export const evmAddress = () =>
  vine
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .toLowerCase()

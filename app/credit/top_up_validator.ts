import vine from '@vinejs/vine'
import { registerCodedRules } from '#core/coded_rules'
import { bootedConfig } from '#core/injectable_config'
import { CreditConfig } from '#credit/define_config'
import { type Microstx, formatStx, parseStx } from '#ledger/money'

const creditConfig = bootedConfig(CreditConfig)

/**
 * A top-up's amount in STX (a decimal with at most 6 places), turned into
 * µSTX without floats, within config/credit.ts's bounds.
 */
const topUpAmount = vine.createRule((value, _options, field) => {
  const parsed = typeof value === 'string' ? parseStx(value) : null
  if (parsed === null) {
    field.report(
      'amount_stx must be an amount of STX with at most 6 decimals, e.g. "1.5"',
      'invalid_top_up_amount',
      field
    )
    return
  }
  const { minimumMicrostx, maximumMicrostx } = creditConfig().topUp
  if (parsed < minimumMicrostx) {
    field.report(
      `A top-up is at least ${formatStx(minimumMicrostx)} STX`,
      'top_up_below_minimum',
      field
    )
    return
  }
  if (parsed > maximumMicrostx) {
    field.report(
      `A top-up is at most ${formatStx(maximumMicrostx)} STX`,
      'top_up_above_maximum',
      field
    )
    return
  }
  field.mutate(parsed, field)
})

/** POST /credit/top-ups?amount_stx=<decimal> */
export const topUpValidator = vine.create({
  amount_stx: vine
    .string()
    .use(topUpAmount())
    .transform((value) => value as unknown as Microstx),
})

registerCodedRules('invalid_top_up_amount', 'top_up_below_minimum', 'top_up_above_maximum')

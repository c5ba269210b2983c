import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { CreditConfig } from '#credit/define_config'
import type { CreditPageProps } from '#web/page_context'

/**
 * /credit: a shell whose island signs in with the wallet, then reads its
 * balance and statement and refunds with the wallet's signature, through the
 * credit API like any client. The server renders no wallet data itself.
 */
@inject()
export default class ShowCreditPageController {
  constructor(private config: CreditConfig) {}

  async handle({ view }: HttpContext) {
    const props: CreditPageProps = {
      refundMinimumMicrostx: this.config.refund.minimumMicrostx.toString(),
    }
    return view.render('pages/credit', { props })
  }
}

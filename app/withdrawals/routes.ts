import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const RequestWithdrawalController = () =>
  import('#withdrawals/controllers/request_withdrawal_controller')
const WithdrawalHistoryController = () =>
  import('#withdrawals/controllers/withdrawal_history_controller')

/** The owner's money out: a bearer session of the wallet that registered the provider. */
router
  .group(() => {
    router.post('withdraw', [RequestWithdrawalController, 'handle']).as('withdraw')
    router.get('withdrawals', [WithdrawalHistoryController, 'handle']).as('withdrawals')
    router
      .get('withdrawals/:withdrawal_id', [WithdrawalHistoryController, 'show'])
      .as('withdrawals.show')
  })
  .prefix('/providers/id/:id')
  .as('providers.withdrawals')
  .use(middleware.auth())

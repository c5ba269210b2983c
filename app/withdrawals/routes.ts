import router from '@adonisjs/core/services/router'
import { ownerRoutes } from '#provider_accounts/owner_routes'
import { throttle } from '#start/limiter'
import { listWithdrawalsValidator, withdrawValidator } from '#withdrawals/validators'

const RequestWithdrawalController = () =>
  import('#withdrawals/controllers/request_withdrawal_controller')
const ListWithdrawalsController = () =>
  import('#withdrawals/controllers/list_withdrawals_controller')
const ShowWithdrawalController = () => import('#withdrawals/controllers/show_withdrawal_controller')

/** The owner's money out: a bearer session of the wallet that registered the provider. */
ownerRoutes(() => {
  router
    .post('withdraw', [RequestWithdrawalController, 'handle'])
    .as('withdraw')
    .use(throttle.withdrawals)
    .accepts({ body: withdrawValidator })
  router
    .get('withdrawals', [ListWithdrawalsController, 'handle'])
    .as('withdrawals')
    .accepts({ query: listWithdrawalsValidator })
  router
    .get('withdrawals/:withdrawal_id', [ShowWithdrawalController, 'handle'])
    .as('withdrawals.show')
}).as('providers.withdrawals')

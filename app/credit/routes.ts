import router from '@adonisjs/core/services/router'
import { throttle } from '#start/limiter'
import { TOP_UP_ROUTE } from '#credit/top_up_payment_required'
import { topUpValidator } from '#credit/validators'

const BuyTopUpController = () => import('#credit/controllers/buy_top_up_controller')

router
  .post(TOP_UP_ROUTE.pattern, [BuyTopUpController, 'handle'])
  .as(TOP_UP_ROUTE.name)
  .use(throttle.topUps)
  .accepts({ query: topUpValidator })

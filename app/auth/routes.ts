import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { throttle } from '#start/limiter'
import { nonceRequestValidator, verifyRequestValidator } from '#auth/validators'

const IssueNonceController = () => import('#auth/controllers/issue_nonce_controller')
const VerifySignInController = () => import('#auth/controllers/verify_sign_in_controller')
const LogoutController = () => import('#auth/controllers/logout_controller')
const ShowMeController = () => import('#auth/controllers/show_me_controller')

router
  .group(() => {
    router
      .post('nonce', [IssueNonceController, 'handle'])
      .as('nonce')
      .use(throttle.signIn)
      .accepts({ body: nonceRequestValidator })
    router
      .post('verify', [VerifySignInController, 'handle'])
      .as('verify')
      .use(throttle.signIn)
      .accepts({ body: verifyRequestValidator })
    router
      .group(() => {
        router.post('logout', [LogoutController, 'handle']).as('logout').accepts({ status: 204 })
        router.get('me', [ShowMeController, 'handle']).as('me')
      })
      .use(middleware.auth())
  })
  .prefix('/auth')
  .as('auth')

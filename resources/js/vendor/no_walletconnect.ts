/**
 * Stands in for @reown/appkit-universal-connector, which @stacks/connect
 * imports only when a page asks for WalletConnect. These pages do not (people
 * use the Leather and Xverse extensions), so several hundred kilobytes of
 * WalletConnect UI are left out of the build.
 */
export const UniversalConnector = {
  init() {
    throw new Error(
      'WalletConnect is not enabled on Tollbooth: use the Leather or Xverse extension'
    )
  },
}

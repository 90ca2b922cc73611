/** What happens to an object on the API when its construct leaves the app or the stack is destroyed. */
export enum RemovalPolicy {
  /** Delete the object. */
  DESTROY = 'destroy',
  /** Keep the object on the API and forget it in state. */
  RETAIN = 'retain',
}

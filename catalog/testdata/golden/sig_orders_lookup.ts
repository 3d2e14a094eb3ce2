tools.orders.lookup({
  /** Order identifier */
  id: string,
  verbose?: boolean,
}): Promise<{
  /** Current order status */
  status: string,
}>

/** A copy refused or failed for a reason the operator can act on: printed as is, without a stack. */
export class TransferError extends Error {}

export const PaginationLimits = {
  defaultPageSize: 100,
  maxPageSize: 1000,
  /** Non-positive requests get the default; oversized ones are clamped silently, never rejected. */
  resolve(requested: number): number {
    if (!Number.isFinite(requested) || requested <= 0) return PaginationLimits.defaultPageSize;
    return Math.min(Math.floor(requested), PaginationLimits.maxPageSize);
  },
} as const;

import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { defaultMemoryBudgetBytes } from '../../shared/records.js';

/** The global budget when none is given (`--memory-budget`): sized from this machine (shared/records.ts). */
export function machineMemoryBudget(): number {
  return defaultMemoryBudgetBytes({
    totalMemoryBytes: totalmem(),
    heapLimitBytes: getHeapStatistics().heap_size_limit,
  });
}

import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ServiceRuntime } from '../runtime/service-runtime';

/** Lets repositories inject the service's one DataSource, opened and migrated at start by the runtime. */
export function dataSourceProvider(runtime: ServiceRuntime): Provider {
  return { provide: DataSource, useValue: runtime.dataSource };
}

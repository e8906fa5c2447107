import 'reflect-metadata';
import { migrateService } from '@app/messaging';
import { syncSchedulerDefinition } from './sync-scheduler.definition';

void migrateService(syncSchedulerDefinition);

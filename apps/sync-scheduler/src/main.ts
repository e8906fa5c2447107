import 'reflect-metadata';
import { bootstrapService } from '@app/messaging';
import { syncSchedulerDefinition } from './sync-scheduler.definition';

void bootstrapService(syncSchedulerDefinition);

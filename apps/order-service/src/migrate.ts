import 'reflect-metadata';
import { migrateService } from '@app/messaging';
import { orderServiceDefinition } from './order-service.definition';

void migrateService(orderServiceDefinition);

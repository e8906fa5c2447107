import 'reflect-metadata';
import { bootstrapService } from '@app/messaging';
import { orderServiceDefinition } from './order-service.definition';

void bootstrapService(orderServiceDefinition);

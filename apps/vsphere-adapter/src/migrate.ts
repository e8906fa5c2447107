import 'reflect-metadata';
import { migrateService } from '@app/messaging';
import { vsphereAdapterDefinition } from './vsphere-adapter.definition';

void migrateService(vsphereAdapterDefinition);

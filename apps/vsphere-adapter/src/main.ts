import 'reflect-metadata';
import { bootstrapService } from '@app/messaging';
import { vsphereAdapterDefinition } from './vsphere-adapter.definition';

void bootstrapService(vsphereAdapterDefinition);

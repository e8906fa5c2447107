// First: it may start the adapter again under its heap cap (config/apply-heap-cap.ts).
import './config/apply-heap-cap';
import 'reflect-metadata';
import { bootstrapService } from '@app/messaging';
import { vsphereAdapterDefinition } from './vsphere-adapter.definition';

void bootstrapService(vsphereAdapterDefinition);

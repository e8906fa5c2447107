import type { MoRef } from './mo-ref';

/** vim25 AboutInfo (subset): what the server is. */
export interface AboutInfo {
  readonly name: string;
  readonly fullName: string;
  readonly version: string;
  readonly apiType: string;
  readonly apiVersion: string;
  readonly instanceUuid?: string;
}

/** vim25 ServiceContent (subset): the singleton managers the client uses. */
export interface ServiceContent {
  readonly rootFolder: MoRef;
  readonly propertyCollector: MoRef;
  readonly viewManager: MoRef;
  readonly sessionManager: MoRef;
  readonly virtualDiskManager?: MoRef;
  /** PerformanceManager (statistics). */
  readonly perfManager?: MoRef;
  readonly about: AboutInfo;
}

/** vim25 UserSession (subset), as Login returns it and SessionManager.sessionList lists it. */
export interface UserSession {
  readonly key: string;
  readonly userName: string;
  readonly fullName?: string;
  readonly loginTime?: string;
  readonly lastActiveTime?: string;
  readonly ipAddress?: string;
  readonly userAgent?: string;
}

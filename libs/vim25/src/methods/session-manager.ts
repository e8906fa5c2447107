import type { SoapCaller } from '../soap/soap-transport';
import type { XmlValue } from '../xml/decoder';
import { asArray, asBoolean, asObject, asString } from '../xml/values';
import type { MoRef } from '../types/mo-ref';
import type { UserSession } from '../types/service-content';
import { invoke, type CallOptions } from './invoke';

/** Maps a decoded vim25 UserSession. Pure. */
export function toUserSession(value: XmlValue | undefined): UserSession {
  const o = asObject(value);
  return {
    key: asString(o?.key) ?? '',
    userName: asString(o?.userName) ?? '',
    fullName: asString(o?.fullName),
    loginTime: asString(o?.loginTime),
    lastActiveTime: asString(o?.lastActiveTime),
    ipAddress: asString(o?.ipAddress),
    userAgent: asString(o?.userAgent),
  };
}

/**
 * SessionManager.Login: opens a session; vCenter answers with the `vmware_soap_session` cookie
 * (read it from the caller's reply). Wrong credentials: VimFault InvalidLogin. One round trip.
 */
export async function login(
  caller: SoapCaller,
  sessionManager: MoRef,
  userName: string,
  password: string,
  options?: CallOptions,
): Promise<UserSession> {
  return toUserSession(await invoke(caller, 'Login', sessionManager, { userName, password }, options));
}

/** SessionManager.Logout: ends the caller's session. One round trip. */
export async function logout(
  caller: SoapCaller,
  sessionManager: MoRef,
  options?: CallOptions,
): Promise<void> {
  await invoke(caller, 'Logout', sessionManager, {}, options);
}

/** SessionManager.SessionIsActive: whether session `sessionID` of `userName` is alive (needs Sessions.ValidateSession). One round trip. */
export async function sessionIsActive(
  caller: SoapCaller,
  sessionManager: MoRef,
  sessionID: string,
  userName: string,
  options?: CallOptions,
): Promise<boolean> {
  return (
    asBoolean(await invoke(caller, 'SessionIsActive', sessionManager, { sessionID, userName }, options)) ??
    false
  );
}

/** SessionManager.TerminateSession: ends other sessions by key (needs Sessions.TerminateSession). One round trip. */
export async function terminateSession(
  caller: SoapCaller,
  sessionManager: MoRef,
  sessionIds: readonly string[],
  options?: CallOptions,
): Promise<void> {
  await invoke(caller, 'TerminateSession', sessionManager, { sessionId: sessionIds }, options);
}

/**
 * SessionManager.AcquireCloneTicket: a one-time ticket that CloneSession turns into a session with
 * this session's privileges. It is a credential of the account, not a console ticket: never hand
 * it to anyone (a VM console is VirtualMachine.AcquireTicket). One round trip.
 */
export async function acquireCloneTicket(
  caller: SoapCaller,
  sessionManager: MoRef,
  options?: CallOptions,
): Promise<string> {
  return asString(await invoke(caller, 'AcquireCloneTicket', sessionManager, {}, options)) ?? '';
}

/** Reads the keys of a decoded `ArrayOfUserSession` (SessionManager.sessionList). Pure. */
export function toUserSessions(value: XmlValue | undefined): UserSession[] {
  return asArray(value).map(toUserSession);
}

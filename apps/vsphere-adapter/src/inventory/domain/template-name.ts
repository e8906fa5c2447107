/** An operating system and its version, as the order form shows a template's name on two lines. */
export interface OsName {
  readonly os: string;
  readonly version: string;
}

// The first space, dash or underscore that is followed by a digit.
const SPLIT = /[\s_-](?=\d)/;
const TRAILING_SEPARATORS = /[\s_-]+$/;

/**
 * Splits a template name at its first separator (space, `-`, `_`) followed by a digit, as the
 * Waldur docs advise naming templates `<OS>-<version>`: "Ubuntu-24.04" → Ubuntu / 24.04,
 * "AlmaLinux 8 x86_64" → AlmaLinux / 8 x86_64, "Windows Server 2022" → Windows Server / 2022.
 * A name without one is all OS and no version. Pure.
 */
export function splitTemplateName(name: string): OsName {
  const trimmed = name.trim();
  const match = SPLIT.exec(trimmed);
  if (match === null || match.index === 0) return { os: trimmed, version: '' };
  const os = trimmed.slice(0, match.index).replace(TRAILING_SEPARATORS, '');
  if (os === '') return { os: trimmed, version: '' };
  return { os, version: trimmed.slice(match.index + 1).trim() };
}

import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { CredentialCipher, CredentialCipherError, type OpenedSecret } from '../domain/credential-cipher';
import { IntegrationRepository } from '../repositories/integration.repository';

/**
 * The vCenter passwords at rest: sealed with the current key of `CREDENTIALS_KEYS` (AES-256-GCM,
 * bound to the offering), opened with whichever key sealed them, and sealed again with the current
 * key when an older one was used (key rotation).
 */
@Injectable()
export class CredentialsService {
  private readonly cipher: CredentialCipher;

  constructor(
    @Inject(CONFIG) config: VsphereAdapterConfig,
    private readonly integrations: IntegrationRepository,
  ) {
    this.cipher = new CredentialCipher(config.CREDENTIALS_KEYS);
  }

  get canSeal(): boolean {
    return this.cipher.canSeal;
  }

  seal(password: string, offeringUuid: string): string {
    return this.cipher.seal(password, offeringUuid);
  }

  /** Opens a stored password; one sealed with an older key is sealed again with the current one. */
  async open(offeringUuid: string, sealed: string): Promise<OpenedSecret> {
    const opened = this.cipher.open(sealed, offeringUuid);
    if (opened.stale)
      await this.integrations.resealPassword(offeringUuid, sealed, this.seal(opened.plaintext, offeringUuid));
    return opened;
  }

  /**
   * Seals every stored password with the current key; returns how many were sealed again, and the
   * offerings whose password no configured key opens (their providers must save it again).
   */
  async rotateAll(): Promise<{ resealed: number; total: number; unreadable: string[] }> {
    const rows = await this.integrations.listSealedPasswords();
    let resealed = 0;
    const unreadable: string[] = [];
    for (const row of rows) {
      let opened: OpenedSecret;
      try {
        opened = this.cipher.open(row.passwordSealed, row.offeringUuid);
      } catch (error) {
        if (!(error instanceof CredentialCipherError)) throw error;
        unreadable.push(row.offeringUuid);
        continue;
      }
      if (!opened.stale) continue;
      const next = this.seal(opened.plaintext, row.offeringUuid);
      if (await this.integrations.resealPassword(row.offeringUuid, row.passwordSealed, next)) resealed++;
    }
    return { resealed, total: rows.length, unreadable };
  }
}

/**
 * An organisation (Waldur's customer) as other modules read it: the marketplace names offerings'
 * providers and checks quotas by it. The row itself stays identity's (CustomerEntity implements this).
 */
export interface CustomerRecord {
  readonly uuid: string;
  readonly name: string;
  readonly nativeName: string;
  readonly abbreviation: string;
  readonly email: string;
  readonly phoneNumber: string;
  readonly description: string;
  readonly created: Date;
}

/** A project as other modules read it: orders are placed in one (ProjectEntity implements this). */
export interface ProjectRecord {
  readonly uuid: string;
  readonly customerUuid: string;
  readonly name: string;
  readonly description: string;
  readonly created: Date;
}

/**
 * @module
 * Response fields of client administration and of the read-only client records (client contacts,
 * quality assignments): what the sandbox fills in beyond a body, or the whole shape where no body
 * creates the record.
 */

/** `ClientContactDto` (`GET /ClientContacts`, read-only): all fields. */
export const CLIENT_CONTACT_DTO_FIELDS = [
  "Email",
  "FirstName",
  "Id",
  "LastName",
  "Phone",
  "Role",
  "YearOfBirth",
] as const;

/** Fields of `ClientDto` that `ClientPostDto` lacks. */
export const CLIENT_DTO_FIELDS = ["Id", "IsActive"] as const;

/**
 * Fields of `UserDto` that `InviteUserPostDto` lacks. (Against `AddPartnerUserPostDto`, the
 * response also adds EmailAddress, FirstName and LastName.)
 */
export const USER_DTO_FIELDS = ["Id", "Status"] as const;

/** `AssignmentGeneralDto` (`GET /Assignments/{id}`): all fields. */
export const ASSIGNMENT_GENERAL_DTO_FIELDS = [
  "AgreementSignedDate",
  "AssociateSubledgerAccountId",
  "AuditingCompanyId",
  "AuditorId",
  "CurrentAgreementDate",
  "CustomerContactPersonId",
  "CustomerSubledgerAccountId",
  "Description",
  "EndDate",
  "Id",
  "KeyAccountManagerSubledgerAccountId",
  "ManagerSubledgerAccountId",
  "NoticePeriod",
  "PayrollManagerSubledgerAccountId",
  "ProjectId",
  "PurposeForContact",
  "ReasonForContact",
  "RevisionDate",
  "StartDate",
  "Status",
  "SubjectToAudit",
] as const;

/** `AssignmentLightWeightDto` (`GET /Assignments`): all fields. */
export const ASSIGNMENT_LIGHT_WEIGHT_DTO_FIELDS = [
  "AgreementSignedDate",
  "AssociateSubledgerAccountId",
  "CurrentAgreementDate",
  "CustomerContactPersonId",
  "CustomerSubledgerAccountId",
  "Description",
  "EndDate",
  "Id",
  "KeyAccountManagerSubledgerAccountId",
  "ManagerSubledgerAccountId",
  "PayrollManagerSubledgerAccountId",
  "ProjectId",
  "RevisionDate",
  "StartDate",
  "Status",
] as const;

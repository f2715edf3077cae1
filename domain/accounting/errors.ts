/**
 * The accounting business errors: each code clients switch on, and its message in every language. `[...]`
 * is a part shown only when every parameter in it is given (api/i18n.ts). Typed by the codes, so a code
 * without its four languages does not compile.
 */
import type { Messages } from '../messages.ts';

export const AccountingErrors = {
  accountCodeAlreadyExists: 'accounting.businessErrors.accountCodeAlreadyExists',
  accountHasEntries: 'accounting.businessErrors.accountHasEntries',
  accountNotPostable: 'accounting.businessErrors.accountNotPostingLevel',
  accountDeactivated: 'accounting.businessErrors.accountDeactivated',
  accountNotFound: 'accounting.businessErrors.accountNotFound',
  accountCodeNotInChart: 'accounting.businessErrors.accountCodeNotInChart',
  journalTypeCodeAlreadyExists: 'accounting.businessErrors.journalTypeCodeAlreadyExists',
  journalTypeNotFound: 'accounting.businessErrors.journalTypeNotFound',
  journalTypeDeactivated: 'accounting.businessErrors.journalTypeDeactivated',
  journalTypeInUse: 'accounting.businessErrors.journalTypeInUse',
  accountReferenced: 'accounting.businessErrors.accountReferenced',
  journalTypeReferenced: 'accounting.businessErrors.journalTypeReferenced',
  exerciseOverlaps: 'accounting.businessErrors.accountingExerciseOverlaps',
  exerciseInvalidDates: 'accounting.businessErrors.accountingExerciseInvalidDates',
  exerciseEndDateDisagrees: 'accounting.businessErrors.accountingExerciseEndDateDisagrees',
  exerciseNotFound: 'accounting.businessErrors.accountingExerciseNotFound',
  exerciseClosed: 'accounting.businessErrors.accountingExerciseClosed',
  noExerciseForDate: 'accounting.businessErrors.noAccountingExerciseForDate',
  periodClosed: 'accounting.businessErrors.accountingPeriodClosed',
  periodNotFound: 'accounting.businessErrors.accountingPeriodNotFound',
  periodAlreadyClosed: 'accounting.businessErrors.accountingPeriodAlreadyClosed',
  periodNotClosed: 'accounting.businessErrors.accountingPeriodNotClosed',
  unbalancedEntry: 'accounting.businessErrors.unbalancedEntry',
  invalidLineAmount: 'accounting.businessErrors.invalidAccountingEntryLineAmount',
  tooFewLines: 'accounting.businessErrors.accountingEntryNeedsTwoLines',
  entryNotFound: 'accounting.businessErrors.accountingEntryNotFound',
  entryClosed: 'accounting.businessErrors.accountingEntryClosed',
  thirdPartyNotFound: 'accounting.businessErrors.thirdPartyNotFound',
} as const;

export type AccountingErrorCode = (typeof AccountingErrors)[keyof typeof AccountingErrors];

export const ACCOUNTING_MESSAGES: Record<AccountingErrorCode, Messages> = {
  [AccountingErrors.accountCodeAlreadyExists]: { en: 'An account with code {code} already exists.', es: 'Ya existe una cuenta con el código {code}.', fr: 'Un compte de code {code} existe déjà.', de: 'Ein Konto mit der Nummer {code} existiert bereits.' },
  [AccountingErrors.accountHasEntries]: { en: 'The account {code} has entries and cannot be deleted; deactivate it instead.', es: 'La cuenta {code} tiene asientos y no se puede eliminar; desactívela.', fr: 'Le compte {code} a des écritures et ne peut être supprimé ; désactivez-le.', de: 'Das Konto {code} hat Buchungen und kann nicht gelöscht werden; deaktivieren Sie es.' },
  [AccountingErrors.accountNotPostable]: { en: 'The account {code} is a heading[ (line {line})][ ({field})]; entries post to sub-accounts only.', es: 'La cuenta {code} es de agrupación[ (línea {line})][ ({field})]; solo se puede asentar en subcuentas.', fr: 'Le compte {code} est un compte de regroupement[ (ligne {line})][ ({field})] ; seuls les sous-comptes acceptent des écritures.', de: 'Das Konto {code} ist ein Sammelkonto[ (Zeile {line})][ ({field})]; gebucht wird nur auf Unterkonten.' },
  [AccountingErrors.accountDeactivated]: { en: 'The accounting account {code} is deactivated[ (line {line})][ ({field})].', es: 'La cuenta contable {code} está desactivada[ (línea {line})][ ({field})].', fr: 'Le compte comptable {code} est désactivé[ (ligne {line})][ ({field})].', de: 'Das Sachkonto {code} ist deaktiviert[ (Zeile {line})][ ({field})].' },
  [AccountingErrors.accountNotFound]: { en: 'Unknown accounting account {code}{id}[ (line {line})][ ({field})].', es: 'Cuenta contable desconocida {code}{id}[ (línea {line})][ ({field})].', fr: 'Compte comptable inconnu {code}{id}[ (ligne {line})][ ({field})].', de: 'Unbekanntes Sachkonto {code}{id}[ (Zeile {line})][ ({field})].' },
  [AccountingErrors.accountCodeNotInChart]: { en: 'The account code {code} is not in the chart of accounts: give its accountType.', es: 'El código de cuenta {code} no está en el plan contable: indique su accountType.', fr: "Le numéro de compte {code} n'est pas dans le plan comptable : indiquez son accountType.", de: 'Die Kontonummer {code} ist nicht im Kontenrahmen: geben Sie ihren accountType an.' },
  [AccountingErrors.journalTypeCodeAlreadyExists]: { en: 'A journal type with code {code} already exists.', es: 'Ya existe un diario con el código {code}.', fr: 'Un journal de code {code} existe déjà.', de: 'Ein Journal mit dem Kürzel {code} existiert bereits.' },
  [AccountingErrors.journalTypeNotFound]: { en: 'Unknown journal type {code}{id}.', es: 'Diario desconocido {code}{id}.', fr: 'Journal inconnu {code}{id}.', de: 'Unbekanntes Journal {code}{id}.' },
  [AccountingErrors.journalTypeDeactivated]: { en: 'The journal type {code} is deactivated.', es: 'El diario {code} está desactivado.', fr: 'Le journal {code} est désactivé.', de: 'Das Journal {code} ist deaktiviert.' },
  [AccountingErrors.journalTypeInUse]: { en: 'The journal type {code} is used by entries and cannot be deleted; deactivate it instead.', es: 'El diario {code} se usa en asientos y no se puede eliminar; desactívelo.', fr: 'Le journal {code} est utilisé par des écritures et ne peut être supprimé ; désactivez-le.', de: 'Das Journal {code} wird in Buchungen verwendet und kann nicht gelöscht werden; deaktivieren Sie es stattdessen.' },
  [AccountingErrors.accountReferenced]: { en: 'The account {code} is used by the {entity} {name} and cannot be deleted; deactivate it instead.', es: 'La cuenta {code} la usa {entity} {name} y no se puede eliminar; desactívela.', fr: "Le compte {code} est utilisé par {entity} {name} et ne peut être supprimé ; désactivez-le.", de: 'Das Konto {code} wird von {entity} {name} verwendet und kann nicht gelöscht werden; deaktivieren Sie es.' },
  [AccountingErrors.journalTypeReferenced]: { en: 'The journal type {code} is used by the {entity} {name} and cannot be deleted; deactivate it instead.', es: 'El diario {code} lo usa {entity} {name} y no se puede eliminar; desactívelo.', fr: "Le journal {code} est utilisé par {entity} {name} et ne peut être supprimé ; désactivez-le.", de: 'Das Journal {code} wird von {entity} {name} verwendet und kann nicht gelöscht werden; deaktivieren Sie es stattdessen.' },
  [AccountingErrors.exerciseOverlaps]: { en: 'The exercise overlaps the exercise {startDate} to {endDate}.', es: 'El ejercicio se solapa con el ejercicio de {startDate} a {endDate}.', fr: "L'exercice chevauche l'exercice du {startDate} au {endDate}.", de: 'Das Geschäftsjahr überschneidet sich mit {startDate} bis {endDate}.' },
  [AccountingErrors.exerciseInvalidDates]: { en: 'An exercise from {startDate} to {endDate} is not possible: it ends on or after its start and spans at most {maxPeriods} months.', es: 'No es posible un ejercicio de {startDate} a {endDate}: termina en su inicio o después y abarca como máximo {maxPeriods} meses.', fr: "Un exercice du {startDate} au {endDate} n'est pas possible : il finit au plus tôt le jour de son début et couvre au plus {maxPeriods} mois.", de: 'Ein Geschäftsjahr von {startDate} bis {endDate} ist nicht möglich: es endet am oder nach seinem Beginn und umfasst höchstens {maxPeriods} Monate.' },
  [AccountingErrors.exerciseEndDateDisagrees]: { en: 'An exercise of {numberPeriods} months from {startDate} ends on {expectedEndDate}, not on {endDate}: send one of endDate and numberPeriods, or both in agreement.', es: 'Un ejercicio de {numberPeriods} meses desde {startDate} termina el {expectedEndDate}, no el {endDate}: envíe endDate o numberPeriods, o ambos de acuerdo.', fr: "Un exercice de {numberPeriods} mois à partir du {startDate} se termine le {expectedEndDate}, pas le {endDate} : envoyez endDate ou numberPeriods, ou les deux en accord.", de: 'Ein Geschäftsjahr von {numberPeriods} Monaten ab {startDate} endet am {expectedEndDate}, nicht am {endDate}: senden Sie endDate oder numberPeriods, oder beide übereinstimmend.' },
  [AccountingErrors.exerciseNotFound]: { en: 'Unknown accounting exercise {id}.', es: 'Ejercicio contable desconocido {id}.', fr: 'Exercice comptable inconnu {id}.', de: 'Unbekanntes Geschäftsjahr {id}.' },
  [AccountingErrors.exerciseClosed]: { en: 'The accounting exercise[ {exercise}] is closed.', es: 'El ejercicio contable[ {exercise}] está cerrado.', fr: "L'exercice comptable[ {exercise}] est clôturé.", de: 'Das Geschäftsjahr[ {exercise}] ist abgeschlossen.' },
  [AccountingErrors.noExerciseForDate]: { en: 'No accounting exercise covers {date}.', es: 'Ningún ejercicio contable cubre {date}.', fr: 'Aucun exercice comptable ne couvre le {date}.', de: 'Kein Geschäftsjahr umfasst {date}.' },
  [AccountingErrors.periodClosed]: { en: 'The accounting period of {date} is closed.', es: 'El periodo contable de {date} está cerrado.', fr: 'La période comptable du {date} est clôturée.', de: 'Die Buchungsperiode von {date} ist abgeschlossen.' },
  [AccountingErrors.periodNotFound]: { en: 'Unknown accounting period {id}.', es: 'Periodo contable desconocido {id}.', fr: 'Période comptable inconnue {id}.', de: 'Unbekannte Buchungsperiode {id}.' },
  [AccountingErrors.periodAlreadyClosed]: { en: 'The accounting period {id} is already closed.', es: 'El periodo contable {id} ya está cerrado.', fr: 'La période comptable {id} est déjà clôturée.', de: 'Die Buchungsperiode {id} ist bereits abgeschlossen.' },
  [AccountingErrors.periodNotClosed]: { en: 'The accounting period {id} is not closed.', es: 'El periodo contable {id} no está cerrado.', fr: "La période comptable {id} n'est pas clôturée.", de: 'Die Buchungsperiode {id} ist nicht abgeschlossen.' },
  [AccountingErrors.unbalancedEntry]: { en: 'The entry is unbalanced: debits {debit} and credits {credit} must be equal.', es: 'El asiento está descuadrado: el debe {debit} y el haber {credit} deben ser iguales.', fr: "L'écriture est déséquilibrée : débit {debit} et crédit {credit} doivent être égaux.", de: 'Die Buchung ist nicht ausgeglichen: Soll {debit} und Haben {credit} müssen gleich sein.' },
  [AccountingErrors.invalidLineAmount]: { en: 'Invalid amount[ on line {line}][ in {field}][ ({value})]: {reason}.', es: 'Importe no válido[ en la línea {line}][ en {field}][ ({value})]: {reason}.', fr: 'Montant invalide[ à la ligne {line}][ dans {field}][ ({value})] : {reason}.', de: 'Ungültiger Betrag[ in Zeile {line}][ in {field}][ ({value})]: {reason}.' },
  [AccountingErrors.tooFewLines]: { en: 'An accounting entry needs at least two lines; this one has {count}.', es: 'Un asiento contable necesita al menos dos líneas; este tiene {count}.', fr: 'Une écriture comptable doit avoir au moins deux lignes ; celle-ci en a {count}.', de: 'Eine Buchung braucht mindestens zwei Zeilen; diese hat {count}.' },
  [AccountingErrors.entryNotFound]: { en: 'Unknown accounting entry {id}.', es: 'Asiento contable desconocido {id}.', fr: 'Écriture comptable inconnue {id}.', de: 'Unbekannte Buchung {id}.' },
  [AccountingErrors.entryClosed]: { en: 'The accounting entry {id} is in a closed period and cannot be changed.', es: 'El asiento contable {id} está en un periodo cerrado y no se puede modificar.', fr: "L'écriture comptable {id} est dans une période clôturée et ne peut être modifiée.", de: 'Die Buchung {id} liegt in einer abgeschlossenen Periode und kann nicht geändert werden.' },
  [AccountingErrors.thirdPartyNotFound]: { en: 'Unknown third party {thirdParty}[ on line {line}]: no customer, supplier or employee of the organisation has it.', es: 'Tercero desconocido {thirdParty}[ en la línea {line}]: ningún cliente, proveedor o empleado de la organización lo tiene.', fr: "Tiers inconnu {thirdParty}[ à la ligne {line}] : aucun client, fournisseur ou salarié de l'organisation ne le porte.", de: 'Unbekannter Geschäftspartner {thirdParty}[ in Zeile {line}]: kein Kunde, Lieferant oder Mitarbeiter der Organisation hat diese Angabe.' },
};

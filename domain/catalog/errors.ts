/** The catalogue's business errors, with their messages in every language. */
import type { Messages } from '../messages.ts';

export const CatalogErrors = {
  productNotFound: 'sales.businessErrors.productNotFound',
  productCodeAlreadyExists: 'sales.businessErrors.productCodeAlreadyExists',
  invalidProduct: 'sales.businessErrors.invalidProduct',
  productInUse: 'sales.businessErrors.productInUse',
  productInPriceList: 'sales.businessErrors.productInPriceList',
  priceListNotFound: 'sales.businessErrors.priceListNotFound',
  priceListCodeAlreadyExists: 'sales.businessErrors.priceListCodeAlreadyExists',
  priceListPeriodReversed: 'sales.businessErrors.priceListPeriodReversed',
  priceListLinesOverlap: 'sales.businessErrors.priceListLinesOverlap',
  stretchUnitsReversed: 'sales.businessErrors.stretchUnitsReversed',
  stretchsOverlap: 'sales.businessErrors.stretchsOverlap',
  tariffTypeNotSupported: 'sales.businessErrors.tariffTypeNotSupported',
  priceListInUse: 'sales.businessErrors.priceListInUse',
} as const;

export const CATALOG_MESSAGES: Record<(typeof CatalogErrors)[keyof typeof CatalogErrors], Messages> = {
  [CatalogErrors.productCodeAlreadyExists]: { en: 'A product with code {code} already exists.', es: 'Ya existe un producto con el código {code}.', fr: 'Un produit de code {code} existe déjà.', de: 'Ein Artikel mit der Nummer {code} existiert bereits.' },
  [CatalogErrors.productNotFound]: { en: 'Unknown product {id}.', es: 'Producto desconocido {id}.', fr: 'Produit inconnu {id}.', de: 'Unbekannter Artikel {id}.' },
  [CatalogErrors.invalidProduct]: { en: 'Invalid product ({field}): {reason}.', es: 'Producto no válido ({field}): {reason}.', fr: 'Produit invalide ({field}) : {reason}.', de: 'Ungültiger Artikel ({field}): {reason}.' },
  [CatalogErrors.productInUse]: { en: 'The product {code} is used by sales documents and cannot be deleted; mark it obsolete instead.', es: 'El producto {code} se usa en documentos de venta y no se puede eliminar; márquelo como obsoleto.', fr: 'Le produit {code} est utilisé par des documents de vente et ne peut être supprimé ; marquez-le comme obsolète.', de: 'Der Artikel {code} wird in Verkaufsbelegen verwendet und kann nicht gelöscht werden; kennzeichnen Sie ihn stattdessen als veraltet.' },
  [CatalogErrors.productInPriceList]: { en: 'Product {code} has lines in price list {list}: remove them first.', es: 'El producto {code} tiene líneas en la tarifa o grupo de descuento {list}: elimínelas primero.', fr: 'Le produit {code} a des lignes dans la liste de prix {list} : supprimez-les d\'abord.', de: 'Der Artikel {code} hat Zeilen in der Preisliste {list}: Entfernen Sie diese zuerst.' },
  [CatalogErrors.priceListNotFound]: { en: 'Unknown {kind} {id}.', es: '{kind} desconocido {id}.', fr: '{kind} inconnu {id}.', de: 'Unbekannt: {kind} {id}.' },
  [CatalogErrors.priceListCodeAlreadyExists]: { en: 'A {kind} with code {code} already exists.', es: 'Ya existe un {kind} con el código {code}.', fr: 'Un {kind} de code {code} existe déjà.', de: 'Ein {kind} mit der Nummer {code} existiert bereits.' },
  [CatalogErrors.priceListPeriodReversed]: { en: '{field}: the start date {startDate} is after the end date {endDate}.', es: '{field}: la fecha de inicio {startDate} es posterior a la fecha de fin {endDate}.', fr: '{field} : la date de début {startDate} est postérieure à la date de fin {endDate}.', de: '{field}: Das Anfangsdatum {startDate} liegt nach dem Enddatum {endDate}.' },
  [CatalogErrors.priceListLinesOverlap]: { en: '{field}: two lines of product {productId} are valid on the same day.', es: '{field}: dos líneas del producto {productId} son válidas el mismo día.', fr: '{field} : deux lignes du produit {productId} sont valables le même jour.', de: '{field}: Zwei Zeilen des Artikels {productId} gelten am selben Tag.' },
  [CatalogErrors.stretchUnitsReversed]: { en: '{field}: fromUnits {fromUnits} is above toUnits {toUnits}.', es: '{field}: fromUnits {fromUnits} es mayor que toUnits {toUnits}.', fr: '{field} : fromUnits {fromUnits} dépasse toUnits {toUnits}.', de: '{field}: fromUnits {fromUnits} ist größer als toUnits {toUnits}.' },
  [CatalogErrors.stretchsOverlap]: { en: '{field}: the stretches {first} and {second} overlap.', es: '{field}: los tramos {first} y {second} se solapan.', fr: '{field} : les tranches {first} et {second} se chevauchent.', de: '{field}: Die Staffeln {first} und {second} überschneiden sich.' },
  [CatalogErrors.tariffTypeNotSupported]: { en: 'Tariff type {type} is not supported: it needs a cost price, which products do not keep.', es: 'El tipo de tarifa {type} no está disponible: necesita un precio de coste, que los productos no guardan.', fr: 'Le type de tarif {type} n\'est pas pris en charge : il faut un prix de revient, que les produits ne gardent pas.', de: 'Der Tariftyp {type} wird nicht unterstützt: Er braucht einen Einstandspreis, den Artikel nicht führen.' },
  [CatalogErrors.priceListInUse]: { en: 'The {kind} {code} is a customer\'s and cannot be deleted.', es: 'No se puede eliminar {kind} {code}: lo tiene asignado un cliente.', fr: 'Suppression impossible : {kind} {code} est attribué à un client.', de: '{kind} {code} ist einem Kunden zugeordnet und kann nicht gelöscht werden.' },
};

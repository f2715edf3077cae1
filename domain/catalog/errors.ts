/** The catalogue's business errors, with their messages in every language. */
import type { Messages } from '../messages.ts';

export const CatalogErrors = {
  productNotFound: 'sales.businessErrors.productNotFound',
  productCodeAlreadyExists: 'sales.businessErrors.productCodeAlreadyExists',
  invalidProduct: 'sales.businessErrors.invalidProduct',
  productInUse: 'sales.businessErrors.productInUse',
} as const;

export const CATALOG_MESSAGES: Record<(typeof CatalogErrors)[keyof typeof CatalogErrors], Messages> = {
  [CatalogErrors.productCodeAlreadyExists]: { en: 'A product with code {code} already exists.', es: 'Ya existe un producto con el código {code}.', fr: 'Un produit de code {code} existe déjà.', de: 'Ein Artikel mit der Nummer {code} existiert bereits.' },
  [CatalogErrors.productNotFound]: { en: 'Unknown product {id}.', es: 'Producto desconocido {id}.', fr: 'Produit inconnu {id}.', de: 'Unbekannter Artikel {id}.' },
  [CatalogErrors.invalidProduct]: { en: 'Invalid product ({field}): {reason}.', es: 'Producto no válido ({field}): {reason}.', fr: 'Produit invalide ({field}) : {reason}.', de: 'Ungültiger Artikel ({field}): {reason}.' },
  [CatalogErrors.productInUse]: { en: 'The product {code} is used by sales documents and cannot be deleted; mark it obsolete instead.', es: 'El producto {code} se usa en documentos de venta y no se puede eliminar; márquelo como obsoleto.', fr: 'Le produit {code} est utilisé par des documents de vente et ne peut être supprimé ; marquez-le comme obsolète.', de: 'Der Artikel {code} wird in Verkaufsbelegen verwendet und kann nicht gelöscht werden; kennzeichnen Sie ihn stattdessen als veraltet.' },
};

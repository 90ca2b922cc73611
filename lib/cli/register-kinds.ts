// Importing each domain's handlers module registers its resource and data source kinds.
import '../platform/handlers';
import '../secrets/handlers';
import '../mesh/handlers';

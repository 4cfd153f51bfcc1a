package barrier.restfixture;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * apache/iceberg's REST fixture server on loopback: its adapter and servlet in front of the
 * catalog the environment configures, as RESTCatalogServer configures it (CATALOG_IO__IMPL is
 * io-impl). Not RESTCatalogServer itself, which listens on every interface.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> properties = new HashMap<>();
    System.getenv().forEach((name, value) -> {
      if (name.startsWith("CATALOG_")) {
        String key = name.substring("CATALOG_".length()).replace("__", "-").replace('_', '.');
        properties.put(key.toLowerCase(Locale.ROOT), value);
      }
    });
    int port = Integer.parseInt(properties.remove("rest.port"));
    Catalog backend = CatalogUtil.buildIcebergCatalog("rest_backend", properties, new Configuration());

    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(backend))), "/*");
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(context);
    server.start();
    server.join();
  }
}

// The API's docs page: Swagger UI (static/vendor/swagger-ui/) over the OpenAPI document.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root || typeof window.SwaggerUIBundle !== "function") {
    return;
  }
  window.SwaggerUIBundle({
    url: root.getAttribute("data-document"),
    domNode: root,
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
}());

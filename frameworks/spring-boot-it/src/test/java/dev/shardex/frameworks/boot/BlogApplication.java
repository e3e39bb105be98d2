package dev.shardex.frameworks.boot;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Spring Boot application as start.spring.io makes it: JPA entities, repositories, a service. */
@SpringBootApplication
public class BlogApplication {}
